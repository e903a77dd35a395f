"""Character photos, served to whoever may see the character: never as public files.

Nothing else serves MEDIA_URL once DEBUG is off (production, `make demo`), so without this the
photo links of the admin and the API led nowhere; and a photo is a club member's picture, so it
is shown only where the character itself may be read.
"""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest

from rosters.selectors import characters_visible_to


def character_photo(request: HttpRequest, name: str) -> FileResponse:
    """Send the photo stored as `characters/<name>` if the user may see its character."""
    character = characters_visible_to(request.user).filter(photo=f"characters/{name}").first()
    if character is None:
        raise Http404("No such photo.")
    try:
        handle = character.photo.open("rb")
    except FileNotFoundError:
        raise Http404("The photo's file is missing.") from None
    response = FileResponse(handle)
    response["Cache-Control"] = "private, max-age=3600"
    return response
