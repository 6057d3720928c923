// Shapes the server sends to the islands (camelCase, as in the spec section 3), taken from the
// generated API schema (lib/api-schema.ts: `make api-types`), so they cannot drift from the
// serializers. Decimal fields arrive as numbers.
import type { components } from "./api-schema";

type Schemas = components["schemas"];

export type Money = number;

export type UserType = Schemas["UserTypeEnum"];
export type VerificationStatus = Schemas["VerificationStatusEnum"];
export type RequestStatus = Schemas["RequestStatusEnum"];
export type BookingStatus = Schemas["BookingStatusEnum"];
export type PaymentStatus = Schemas["PaymentStatusEnum"];
export type Urgency = Schemas["UrgencyEnum"];
export type TimeWindow = Schemas["TimeWindowEnum"];
export type SpecialtyId = Schemas["SpecialtyEnum"];

/** A person as others see them (public: no email; parties and admins also get email). */
export type PersonSummary = Schemas["UserSummary"] | Schemas["PublicUser"] | Schemas["ClientInitial"];
export type PublicUser = Schemas["PublicUser"];
/** The signed-in user's own profile (GET /api/auth/user). */
export type User = Schemas["User"];
export type Provider = Schemas["Provider"];
/** A card of the browse list: the public fields and the next free window (or null). */
export type BrowseProvider = Schemas["BrowseProvider"];
export type NextFreeWindow = Schemas["NextFreeWindow"];
/** A helper's profile page (/providers/{id}, GET /api/providers/{id}/profile). */
export type ProviderProfile = Schemas["ProviderProfile"];
export type Schedule = Schemas["Schedule"];
export type TimeOff = Schemas["TimeOff"];
export type ServiceCategory = Schemas["ServiceCategory"];
export type ServiceRequest = Schemas["ServiceRequest"];
export type Booking = Schemas["Booking"];
export type VisitReport = Schemas["VisitReport"];
export type ReplacementOffer = Schemas["ReplacementOffer"];
/** A visit of the day (the provider's and the admins' "Today"). */
export type Visit = Schemas["Visit"];
export type Review = Schemas["Review"];
export type UnreadCount = Schemas["UnreadCount"];
export type Message = Schemas["Message"];
export type Conversation = Schemas["Conversation"];
export type AdminSummary = Schemas["AdminSummary"];
export type Market = Schemas["Market"];
/** GET /api/dashboard (and the dashboard page's first data): its lists, tiles and unread count. */
export type Dashboard = Schemas["Dashboard"];
/** A person cared for, as bookings and requests name them. */
export type RecipientSummary = Schemas["RecipientSummary"];

/** The signed-in person as a page's props describe them (requests_app.views._viewer_props). */
export interface Viewer {
  id: string;
  firstName: string;
  userType: UserType;
  provider: { id: number; verificationStatus: VerificationStatus } | null;
}

/** An applicant's checks (GET /api/vetting/me) and one of them. */
export type MyVetting = Schemas["MyVetting"];
export type VettingStep = Schemas["IdentityStep"] | Schemas["BackgroundStep"];
/** One applicant in the staff vetting queue (GET /api/admin/vetting). */
export type VettingQueueItem = Schemas["VettingQueueItem"];
/** A booking's Kindly phone line as the viewer sees it (GET /api/bookings/{id}/phone-line). */
export type PhoneLine = Schemas["PhoneLine"];
/** Whether a care recipient's phone PIN is set or locked (GET /api/care-recipients/{id}/phone-pin). */
export type PhonePinState = Schemas["PhonePin"];
/** A message a caller left for staff on the phone menu (GET /api/admin/voicemails). */
export type Voicemail = Schemas["Voicemail"];
/** A late fee a family disputed, waiting for staff (GET /api/admin/late-fee-disputes). */
export type LateFeeDisputeRow = Schemas["LateFeeDisputeRow"];
/** A booking's late fee (GET /api/bookings/{id}/late-fee, and staff's decision answers it). */
export type LateFee = Schemas["LateFee"];
/** A call or text through a booking's line, for staff (GET /api/admin/phone-records): no numbers. */
export type StaffPhoneRecord = Schemas["StaffPhoneRecord"];
/** How a care recipient is reminded the evening before a visit (GET /api/care-recipients/{id}/phone-reminder). */
export type PhoneReminderChoice = Schemas["PhoneReminder"];
/** May an organizer tip a visit now, the suggestions and the visit's tip (GET /api/bookings/{id}/tip). */
export type TipOffer = Schemas["TipOffer"];
/** A visit's tip, for its organizers (POST /api/bookings/{id}/tip answers it). */
export type Tip = Schemas["Tip"];
