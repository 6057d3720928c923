"""Event helpers: group names per user, pushes only after commit."""

from __future__ import annotations

import string

from core.realtime import user_group

GROUP_CHARS = set(string.ascii_letters + string.digits + "-_.")


def test_user_group_is_user_underscore_id_for_plain_uids():
    assert user_group("uid-000001") == "user_uid-000001"
    assert user_group("AbC123xyz") == "user_AbC123xyz"


def test_user_groups_never_collide_and_stay_valid_for_any_uid():
    odd = ["a@b", "a_b", "a b", "a.b", "x" * 120, "x" * 121, "é", "user_x"]
    groups = [user_group(u) for u in odd]

    assert len(set(groups)) == len(odd)
    assert all(len(g) < 100 and set(g) <= GROUP_CHARS for g in groups)
