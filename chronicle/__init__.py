"""The chronicle: battle reports, careers, obituaries and a campaign's story, written from the
event log, the post-battle ledger and the service record, every sentence citing its rows."""
