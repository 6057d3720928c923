"""Storage for private files (visit photos): a folder on disk with no URL of its own. Kindly serves
each file itself, to the people allowed, by a signed link (bookings.visit_photo); url() refuses,
so a template or serializer can never hand out a public address by mistake."""

from __future__ import annotations

from django.core.files.storage import FileSystemStorage


class PrivateFileSystemStorage(FileSystemStorage):
    def url(self, name: str | None) -> str:
        raise ValueError("Private files have no public URL; they are served by signed links only.")
