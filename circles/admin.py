from django.contrib import admin

from circles.models import RECIPIENT_PLACE, RECIPIENT_PRIVATE, CareRecipient, CircleInvitation, CircleMember
from core.addresses import FULL, STAFF_SEES, STREET_PARTS


class CircleMemberInline(admin.TabularInline):
    model = CircleMember
    extra = 0
    raw_id_fields = ("user",)


@admin.register(CareRecipient)
class CareRecipientAdmin(admin.ModelAdmin):
    """Staff see what the admin API shows of a recipient (core.addresses.STAFF_SEES): the
    name, town, state and ZIP; the street line, phone and notes for helpers are the circle's and
    the booked helper's only (requests_app.selectors.address_shown_to)."""

    # place_status "Could not be placed" flags an address the geocoder could not find; its
    # coordinates are as private as the street line and never shown here (RECIPIENT_PLACE).
    list_display = ("full_name", "town", "zip_code", "place_status", "account", "created_at")
    list_filter = ("place_status",)
    search_fields = ("first_name", "last_name", "town", "zip_code", "account__email")
    raw_id_fields = ("account",)
    inlines = [CircleMemberInline]

    def get_readonly_fields(self, request, obj=None):
        # Booked visits store their start on this clock: a zone changes only through
        # bookings.services.recipient_time_zone_set, which moves them with it. The place is the
        # geocoder's (circles.services), placed again when the address changes on the circle's page.
        return ("time_zone", "place_status") if obj is not None else ("place_status",)

    def get_exclude(self, request, obj=None):
        hidden = () if STAFF_SEES == FULL else (*STREET_PARTS, *RECIPIENT_PRIVATE)
        return (*(super().get_exclude(request, obj) or ()), *hidden, *RECIPIENT_PLACE)


@admin.register(CircleInvitation)
class CircleInvitationAdmin(admin.ModelAdmin):
    list_display = ("email", "recipient", "role", "status", "created_at")
    list_filter = ("status", "role")
    search_fields = ("email",)
    raw_id_fields = ("recipient", "invited_by", "accepted_by")


@admin.register(CircleMember)
class CircleMemberAdmin(admin.ModelAdmin):
    list_display = ("recipient", "user", "role", "created_at")
    list_filter = ("role",)
    search_fields = ("user__email", "recipient__first_name", "recipient__last_name")
    raw_id_fields = ("recipient", "user")
