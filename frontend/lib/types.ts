// Shapes the server sends to the islands (camelCase, as in the spec section 3).
// Decimal fields arrive as strings ("30.00") from DRF; accept numbers too.
export type Money = string | number;

export type UserType = "client" | "provider" | "admin";
export type VerificationStatus = "pending" | "verified" | "rejected";
export type RequestStatus = "open" | "booked" | "completed" | "cancelled";
export type BookingStatus = "scheduled" | "confirmed" | "completed" | "cancelled";
export type PaymentStatus = "pending" | "paid" | "failed" | "refunded";
export type Urgency = "low" | "normal" | "high" | "urgent";
export type TimeWindow = "morning" | "afternoon" | "evening" | "flexible";
export type SpecialtyId =
  | "tech-support"
  | "wellness-checks"
  | "light-errands"
  | "appointment-support"
  | "home-organization"
  | "communication-support";

/** A person as others see them (public: no email; parties and admins also get email). */
export interface PersonSummary {
  id?: string;
  firstName: string;
  lastName: string;
  profileImageUrl?: string;
  email?: string;
}

/** The signed-in user's own profile (GET /api/auth/user). */
export interface User extends PersonSummary {
  id: string;
  email: string;
  userType: UserType;
  stripeCustomerId?: string;
  stripeSubscriptionId?: string;
  createdAt?: string;
  updatedAt?: string;
}

export interface Provider {
  id: number;
  userId: string;
  specialties: string[];
  hourlyRate: Money | null;
  availability?: unknown;
  serviceArea: string;
  bio: string;
  experience?: string;
  verificationStatus: VerificationStatus;
  isActive?: boolean;
  rating: Money;
  totalReviews: number;
  createdAt?: string;
  updatedAt?: string;
  phone?: string;
  user: PersonSummary;
}

export interface ServiceCategory {
  id: number;
  slug: string;
  name: string;
  description: string;
  icon: string;
  features: string[];
  isActive?: boolean;
}

export interface ServiceRequest {
  id: number;
  clientId: string;
  categoryId: number | null;
  title: string;
  description: string;
  preferredDate: string | null;
  preferredTime: TimeWindow | "" | null;
  urgency: Urgency;
  /** null unless the viewer may see it: the client, verified providers while open, the booked provider. */
  location?: string | null;
  /** Same rule as location. */
  specialRequirements?: string | null;
  estimatedDuration: number | null;
  maxBudget: Money | null;
  status: RequestStatus;
  createdAt: string;
  updatedAt?: string;
  /** Full (with email) for the client, the booked provider and admins; first name and last
   * initial ("S.") for a verified provider browsing open requests. */
  client?: PersonSummary;
  serviceCategory?: Pick<ServiceCategory, "id" | "name"> & Partial<ServiceCategory>;
  /** The request's latest booking, if any. */
  bookingId?: number | null;
}

export interface Booking {
  id: number;
  serviceRequestId: number;
  providerId: number;
  clientId: string;
  scheduledDate: string;
  scheduledTime: TimeWindow | string;
  duration: number | null;
  totalAmount: Money;
  status: BookingStatus;
  paymentStatus: PaymentStatus;
  paymentIntentId?: string;
  notes?: string;
  cancelledAt?: string | null;
  cancellationReason?: string;
  cancelledBy?: string | null;
  createdAt?: string;
  updatedAt?: string;
  /** Server-computed: may the signed-in user cancel it now (state and 48-hour rule)? */
  canCancel?: boolean;
  /** Server-computed: may the signed-in provider mark it completed now? */
  canComplete?: boolean;
  /** Server-computed: may the signed-in client review it now? */
  canReview?: boolean;
  /** ISO datetime of the visit start (date + start of the time window, site zone). */
  visitStart?: string;
  provider?: { id?: number; userId: string; user: PersonSummary; rating?: Money; totalReviews?: number };
  client?: PersonSummary;
  serviceRequest?: {
    id?: number;
    title: string;
    description: string;
    location?: string | null;
    specialRequirements?: string | null;
    status?: RequestStatus;
  };
}

export interface Review {
  id: number;
  bookingId: number;
  reviewerId: string;
  reviewedId: string;
  rating: number;
  comment: string;
  isPublic: boolean;
  createdAt: string;
}

export interface UnreadCount {
  count: number;
}

/** The signed-in person as a page's props describe them (requests_app.views._viewer_props). */
export interface Viewer {
  id: string;
  firstName: string;
  userType: UserType;
  provider: { id: number; verificationStatus: VerificationStatus } | null;
}
