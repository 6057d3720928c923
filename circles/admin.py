from django.contrib import admin

from circles.models import CareRecipient, CircleInvitation, CircleMember


class CircleMemberInline(admin.TabularInline):
    model = CircleMember
    extra = 0
    raw_id_fields = ("user",)


@admin.register(CareRecipient)
class CareRecipientAdmin(admin.ModelAdmin):
    list_display = ("full_name", "account", "created_at")
    search_fields = ("first_name", "last_name", "account__email")
    raw_id_fields = ("account",)
    inlines = [CircleMemberInline]

    def get_readonly_fields(self, request, obj=None):
        # Booked visits store their start on this clock: a zone changes only through
        # bookings.services.recipient_time_zone_set, which moves them with it.
        return ("time_zone",) if obj is not None else ()


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
