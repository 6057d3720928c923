from django.contrib import admin

from payments.models import (
    ConnectedAccount,
    Earning,
    InstantPayout,
    LateFee,
    PaymentIntent,
    ProcessedEvent,
    Refund,
    SavedCard,
    Tip,
    VisitCharge,
)
from payments.selectors import earning_earned, earning_state_label


@admin.register(PaymentIntent)
class PaymentIntentAdmin(admin.ModelAdmin):
    list_display = ("intent_id", "booking", "gateway", "amount_cents", "currency", "created_at")
    list_filter = ("gateway",)
    search_fields = ("intent_id", "booking__id")
    # The client secret lets a browser confirm the payment: never shown.
    exclude = ("client_secret",)
    readonly_fields = [f.name for f in PaymentIntent._meta.fields if f.name != "client_secret"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Refund)
class RefundAdmin(admin.ModelAdmin):
    """Read-only: a failed refund is retried with `manage.py retry_refunds` (it keeps the booking locked right)."""

    list_display = ("booking", "booking_refund_status", "gateway", "attempt", "refund_id", "attempted_at")
    list_filter = ("booking__refund_status", "gateway")
    search_fields = ("booking__id", "refund_id")
    readonly_fields = [f.name for f in Refund._meta.fields]

    @admin.display(description="refund status", ordering="booking__refund_status")
    def booking_refund_status(self, obj: Refund) -> str:
        return obj.booking.get_refund_status_display()

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ProcessedEvent)
class ProcessedEventAdmin(admin.ModelAdmin):
    list_display = ("event_id", "event_type", "intent_id", "outcome", "processed_at")
    list_filter = ("event_type", "outcome")
    search_fields = ("event_id", "intent_id")
    readonly_fields = [f.name for f in ProcessedEvent._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(ConnectedAccount)
class ConnectedAccountAdmin(admin.ModelAdmin):
    """Read-only: Stripe's account.updated keeps these current."""

    list_display = ("account_id", "provider", "gateway", "setup_label", "updated_at")
    list_filter = ("gateway", "charges_enabled", "payouts_enabled")
    search_fields = ("account_id", "provider__user__email")
    readonly_fields = [f.name for f in ConnectedAccount._meta.fields]

    @admin.display(description="payouts")
    def setup_label(self, obj: ConnectedAccount) -> str:
        return obj.setup.label

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Earning)
class EarningAdmin(admin.ModelAdmin):
    """Read-only: a failed transfer or reversal is retried with `manage.py release_earnings`."""

    list_display = ("booking", "gross", "fee", "net", "earned", "outcome", "transfer_id", "last_error")
    list_filter = ("state", "gateway")
    list_select_related = ("booking",)
    search_fields = ("booking__id", "transfer_id", "payout_id")
    readonly_fields = [f.name for f in Earning._meta.fields]

    # The provider's words, as /earnings shows them: a refunded visit earns nothing and says why.
    @admin.display(description="provider keeps")
    def earned(self, obj: Earning) -> str:
        return f"{earning_earned(obj):.2f}"

    @admin.display(description="payout", ordering="state")
    def outcome(self, obj: Earning) -> str:
        return earning_state_label(obj)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LateFee)
class LateFeeAdmin(admin.ModelAdmin):
    """Read-only: staff decide a disputed fee with POST /api/admin/bookings/{id}/late-fee (audited)."""

    list_display = ("booking", "kind", "amount", "state", "disputed_at", "transfer_id", "last_error")
    list_filter = ("state", "kind", "gateway")
    search_fields = ("booking__id", "transfer_id")
    readonly_fields = [f.name for f in LateFee._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tip)
class TipAdmin(admin.ModelAdmin):
    """Read-only: tips, all of them the helper's (payments.tips); a transfer that failed is retried by beat.
    A tip whose visit was refunded in full after the tip reached the helper is flagged (refund flagged
    at): staff decide whether to ask for it back, the "Refund flagged at" filter lists them."""

    list_display = ("booking", "amount", "state", "payer", "transfer_id", "paid_at", "refund_flagged_at")
    list_filter = ("state", "gateway", ("refund_flagged_at", admin.EmptyFieldListFilter))
    search_fields = ("booking__id", "intent_id", "transfer_id")
    exclude = ("client_secret",)
    readonly_fields = [f.name for f in Tip._meta.fields if f.name != "client_secret"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(InstantPayout)
class InstantPayoutAdmin(admin.ModelAdmin):
    """Read-only: helpers' "Get paid now" payouts (payments.instant)."""

    list_display = ("provider", "amount", "fee", "state", "payout_id", "created_at")
    list_filter = ("state", "gateway")
    search_fields = ("payout_id", "provider__id")
    readonly_fields = [f.name for f in InstantPayout._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(VisitCharge)
class VisitChargeAdmin(admin.ModelAdmin):
    """Read-only: a saved card's automatic charge of a visit (payments.cards), with the bank's answer.
    The card is named by brand and last 4 digits only; the payment method is never shown."""

    list_display = ("booking", "state", "card_label", "amount_cents", "decline_code", "attempted_at")
    list_filter = ("state", "gateway")
    search_fields = ("booking__id", "intent_id")
    exclude = ("card",)
    readonly_fields = [f.name for f in VisitCharge._meta.fields if f.name != "card"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(SavedCard)
class SavedCardAdmin(admin.ModelAdmin):
    """Read-only: whose card, its brand and last 4 digits; never the gateway's ids or secrets."""

    list_display = ("user", "brand", "last4", "exp_month", "exp_year", "charge_every_booking", "saved_at")
    fields = ("user", "gateway", "brand", "last4", "exp_month", "exp_year", "charge_every_booking", "saved_at")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
