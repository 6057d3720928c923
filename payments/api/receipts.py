"""Receipts families can file (payments.receipts): a visit's receipt (PDF) and a person's monthly
statement (PDF, CSV), for the organizers of the circle."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from core.pdf import PDF_CONTENT_TYPE
from payments import receipts

MONTH = OpenApiParameter("month", str, required=True, description="YYYY-MM")


def _download(body: bytes | str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"  # money of a family: never kept by a shared cache
    return response


class ReceiptPdfView(APIView):
    """GET /api/bookings/{id}/receipt.pdf: the receipt of a paid visit (organizers of its circle;
    a plain member 403, anyone else 404; an unpaid visit 409)."""

    @extend_schema(responses={(200, PDF_CONTENT_TYPE): OpenApiTypes.BINARY})
    def get(self, request: Request, pk: int) -> HttpResponse:
        line = receipts.receipt_get(user=request.user, booking_id=pk)
        return _download(receipts.receipt_pdf(line), PDF_CONTENT_TYPE, receipts.receipt_filename(line))


class StatementPdfView(APIView):
    """GET /api/recipients/{id}/statement.pdf?month=YYYY-MM: the month's paid visits of the person
    (organizers of the circle; a plain member 403, anyone else 404; a bad month 400)."""

    @extend_schema(parameters=[MONTH], responses={(200, PDF_CONTENT_TYPE): OpenApiTypes.BINARY})
    def get(self, request: Request, pk: int) -> HttpResponse:
        statement = receipts.statement_get(
            user=request.user, recipient_id=pk, month=request.query_params.get("month", "")
        )
        name = f"kindly-statement-{statement.recipient.pk}-{statement.slug}.pdf"
        return _download(receipts.statement_pdf(statement), PDF_CONTENT_TYPE, name)


class StatementCsvView(APIView):
    """GET /api/recipients/{id}/statement.csv?month=YYYY-MM: the same statement as a spreadsheet."""

    @extend_schema(parameters=[MONTH], responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, pk: int) -> HttpResponse:
        statement = receipts.statement_get(
            user=request.user, recipient_id=pk, month=request.query_params.get("month", "")
        )
        name = f"kindly-statement-{statement.recipient.pk}-{statement.slug}.csv"
        return _download(receipts.statement_csv(statement), "text/csv; charset=utf-8", name)
