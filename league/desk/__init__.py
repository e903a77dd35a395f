"""The organiser's desk in the admin: the dashboard of what needs them, a round's results on
one page (with its printable pairing sheet) and the season's settings with a live preview.

Plain views wired into the campaign and round admins (`campaigns.admin`); each makes one call
into a service or a selector."""
