"""The user admin, with the dates of record read-only.

Django's own shows `date_joined` and `last_login` as date-and-time boxes to the second: saving
a user unchanged cut the microseconds off the stored moment (a form must round-trip). They are
records of events, not settings, so they are shown, not edited.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from common.users import User

if TYPE_CHECKING:  # generic only to the type checker, as common.django_bases says
    UserAdminBase = UserAdmin[User]
else:
    UserAdminBase = UserAdmin

if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class MusterUserAdmin(UserAdminBase):
    readonly_fields = ("last_login", "date_joined")
