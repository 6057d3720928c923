from django.contrib import admin

from payments.models import PaymentIntent, ProcessedEvent


@admin.register(PaymentIntent)
class PaymentIntentAdmin(admin.ModelAdmin):
    list_display = ("intent_id", "booking", "gateway", "amount_cents", "currency", "refund_id", "created_at")
    list_filter = ("gateway",)
    search_fields = ("intent_id", "booking__id")
    # The client secret lets a browser confirm the payment: never shown.
    exclude = ("client_secret",)
    readonly_fields = [f.name for f in PaymentIntent._meta.fields if f.name != "client_secret"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(ProcessedEvent)
class ProcessedEventAdmin(admin.ModelAdmin):
    list_display = ("event_id", "event_type", "intent_id", "outcome", "processed_at")
    list_filter = ("event_type", "outcome")
    search_fields = ("event_id", "intent_id")
    readonly_fields = [f.name for f in ProcessedEvent._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
