"""Whole-campaign backups and the demo club: one module above rosters, battles and campaigns,
which it reads and writes.

`campaign_backup.campaign` writes and restores a `muster.campaign` document;
`campaign_backup.schema` checks a document before anything is written; `uploads` reads an
uploaded file strictly; `services` and `tasks` restore an upload as a copy on the worker (a
`RestoreJob`, with progress, exactly once) for the admin pages in `admin`. `seed_demo` loads the
demo club from each app's own demo module (rosters.demo, battles.demo, campaigns.demo_season),
which is why it lives here and not in any one of them. The apps below never import this package.
"""
