"""Whole-campaign backups: one module above rosters, battles and campaigns, which it reads.

`campaign_backup.campaign` writes and restores a `muster.campaign` document;
`campaign_backup.schema` checks a document before anything is written. The apps below never
import this package.
"""
