"""OpenAPI description of Kindly's Firebase bearer authentication (drf-spectacular)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class FirebaseBearerScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.FirebaseBearerAuthentication"
    name = "firebaseBearer"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "Firebase ID token",
            "description": "Authorization: Bearer <Firebase ID token>, for API clients without a session.",
        }
