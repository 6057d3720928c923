from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.languages import DEFAULT_LANGUAGE, Language


class UserType(models.TextChoices):
    CLIENT = "client", _("Client")
    PROVIDER = "provider", _("Provider")
    ADMIN = "admin", _("Admin")


class UserManager(BaseUserManager["User"]):
    def create_user(self, *, id: str, email: str, **fields) -> User:
        user = self.model(id=id, email=self.normalize_email(email), **fields)
        # Passwords live in Firebase; Django never checks one.
        user.set_unusable_password()
        user.save(using=self._db)
        return user


class User(AbstractBaseUser):
    """A person who signed in through Firebase. The primary key is the Firebase uid."""

    id = models.CharField(primary_key=True, max_length=128)
    email = models.EmailField(unique=True)
    first_name = models.CharField(max_length=150, blank=True)
    last_name = models.CharField(max_length=150, blank=True)
    profile_image_url = models.URLField(max_length=1000, blank=True)
    user_type = models.CharField(max_length=16, choices=UserType.choices, default=UserType.CLIENT)
    stripe_customer_id = models.CharField(max_length=255, blank=True)
    stripe_subscription_id = models.CharField(max_length=255, blank=True)
    # The language Kindly speaks to them in: pages (accounts.middleware.UserLanguageMiddleware),
    # emails, texts and in-app notices (each recipient in their own). Set at sign-up from the
    # sign-up card or the browser, changed on /settings.
    language = models.CharField(
        max_length=8, choices=Language.choices, default=DEFAULT_LANGUAGE, db_default=DEFAULT_LANGUAGE
    )
    is_active = models.BooleanField(default=True)
    # Set when the user closes the account (they can no longer sign in); purge_closed_accounts
    # anonymises it 30 days later and sets purged_at.
    closed_at = models.DateTimeField(null=True, blank=True)
    purged_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        ordering = ["email"]

    def __str__(self) -> str:
        return self.full_name or self.email

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def is_admin(self) -> bool:
        return self.user_type == UserType.ADMIN

    # userType admin means staff: the built-in Django admin opens to admins, with every permission.
    @property
    def is_staff(self) -> bool:
        return self.is_active and self.is_admin

    @property
    def is_superuser(self) -> bool:
        return self.is_staff

    def has_perm(self, perm: str, obj: object | None = None) -> bool:
        return self.is_staff

    def has_perms(self, perm_list, obj: object | None = None) -> bool:
        return self.is_staff

    def has_module_perms(self, app_label: str) -> bool:
        return self.is_staff


class EmergencyContact(models.Model):
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="emergency_contacts")
    # The care recipient the contact is for (the user's own recipient for the contacts they had
    # before care circles); the recipient's circle sees it.
    recipient = models.ForeignKey(
        "circles.CareRecipient",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="emergency_contacts",
    )
    name = models.CharField(max_length=200)
    relationship = models.CharField(max_length=100, blank=True)
    phone = models.CharField(max_length=40)
    email = models.EmailField(blank=True)
    is_primary = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-is_primary", "name"]
        constraints = [
            # One primary contact per care recipient (the circle shares them).
            models.UniqueConstraint(
                fields=["recipient"], condition=Q(is_primary=True), name="one_primary_emergency_contact_per_recipient"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"
