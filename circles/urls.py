from django.urls import path

from circles import views as pages
from circles.api import views

urlpatterns = [
    path("api/care-circle", views.CareCircleView.as_view(), name="api-care-circle"),
    path("api/care-recipients", views.CareRecipientCreateView.as_view(), name="api-care-recipients"),
    path("api/care-recipients/<int:pk>", views.CareRecipientDetailView.as_view(), name="api-care-recipient"),
    path(
        "api/care-recipients/<int:pk>/invitations",
        views.InvitationCreateView.as_view(),
        name="api-care-recipient-invitations",
    ),
    path(
        "api/care-recipients/<int:pk>/members/<int:member_id>",
        views.MemberDetailView.as_view(),
        name="api-care-recipient-member",
    ),
    path("api/care-invitations/accept", views.InvitationAcceptView.as_view(), name="api-care-invitation-accept"),
    path("api/care-invitations/<int:pk>", views.InvitationDetailView.as_view(), name="api-care-invitation"),
    path("api/emergency-contacts", views.EmergencyContactListView.as_view(), name="emergency-contacts"),
    path("api/emergency-contacts/<int:pk>", views.EmergencyContactDetailView.as_view(), name="emergency-contact"),
    path("care-circle", pages.care_circle, name="care-circle"),
    path("care-circle/join/<str:token>", pages.care_circle_join, name="care-circle-join"),
]
