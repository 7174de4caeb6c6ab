"""The REST routes of 亲友圈 (clubs): a club, its members and roles, invitations (link and QR
code) and join requests (docs/protocol.md, "Clubs"). Every route needs a signed-in account;
a club is found only by its members (404 ``not_found`` for anybody else, as for no club)."""

from __future__ import annotations

import io
from datetime import timedelta

import segno
from fastapi import APIRouter, Request, Response, status

from ...store.clubs import Club, Invitation
from ...wire.clubs import (
    ClubJoined,
    ClubSettings,
    ClubView,
    CreateClub,
    Decision,
    HandOver,
    InvitationInfo,
    InvitationView,
    MemberView,
    NewInvitation,
    RequestView,
    RoleChange,
)
from ..clubs.service import call, close_club_sockets, limit, member_id, state_of
from ..security.sessions import SignedIn
from .rest import check_creation_rate

router = APIRouter()


def _view(club: Club, role: str) -> ClubView:
    return ClubView(id=club.id, name=club.name, role=role,
                    members=club.members, settings=ClubSettings(**club.settings),
                    created=club.created)


def _invitation(request: Request, invitation: Invitation) -> InvitationView:
    return InvitationView(
        code=invitation.code, link=f"{request.base_url}clubs/join/{invitation.code}",
        qr=f"/api/club-invitations/{invitation.code}/qr.svg", expires=invitation.expires,
        uses=invitation.uses, max_uses=invitation.max_uses, approval=invitation.approval,
    )


@router.post("/api/clubs", status_code=status.HTTP_201_CREATED)
async def create_club(body: CreateClub, request: Request, account: SignedIn) -> ClubView:
    """A new club owned by the signed-in account."""
    check_creation_rate(request)
    club = await call(request, state_of(request).clubs.create, account.id, body.name)
    return _view(club, "owner")


@router.get("/api/clubs")
async def my_clubs(request: Request, account: SignedIn) -> list[ClubView]:
    """The clubs the signed-in account belongs to."""
    return [_view(club, role)
            for club, role in await call(request, state_of(request).clubs.mine, account.id)]


@router.get("/api/clubs/{club_id}")
async def get_club(club_id: str, request: Request, account: SignedIn) -> ClubView:
    """The club (members)."""
    return _view(*await call(request, state_of(request).clubs.club, club_id, account.id))


@router.patch("/api/clubs/{club_id}/settings")
async def set_settings(club_id: str, body: ClubSettings, request: Request,
                       account: SignedIn) -> ClubView:
    """Change the club's settings (admins)."""
    club = await call(request, state_of(request).clubs.set_settings, club_id, account.id,
                      body.model_dump())
    return _view(*await call(request, state_of(request).clubs.club, club.id, account.id))


@router.get("/api/clubs/{club_id}/members")
async def members(club_id: str, request: Request, account: SignedIn) -> list[MemberView]:
    """The club's members, owner and admins first (members)."""
    listed = await call(request, state_of(request).clubs.members, club_id, account.id)
    return [MemberView(username=m.username, role=m.role, joined=m.joined)
            for m in listed]


@router.delete("/api/clubs/{club_id}/members/{username}",
               status_code=status.HTTP_204_NO_CONTENT)
async def remove_member(club_id: str, username: str, request: Request,
                        account: SignedIn) -> None:
    """An admin removes a member; a member's own name: they leave the club."""
    clubs = state_of(request).clubs
    who = await member_id(request, club_id, account.id, username)
    if who == account.id:
        await call(request, clubs.leave, club_id, account.id)
    else:
        await call(request, clubs.remove, club_id, account.id, who)
    await close_club_sockets(request, club_id, who)


@router.put("/api/clubs/{club_id}/members/{username}/role",
            status_code=status.HTTP_204_NO_CONTENT)
async def set_role(club_id: str, username: str, body: RoleChange, request: Request,
                   account: SignedIn) -> None:
    """The owner makes a member an admin, or an admin a member."""
    who = await member_id(request, club_id, account.id, username)
    await call(request, state_of(request).clubs.set_role, club_id, account.id, who, body.role)


@router.post("/api/clubs/{club_id}/owner", status_code=status.HTTP_204_NO_CONTENT)
async def hand_over(club_id: str, body: HandOver, request: Request, account: SignedIn) -> None:
    """The owner hands the club to another member (and stays an admin)."""
    who = await member_id(request, club_id, account.id, body.username)
    await call(request, state_of(request).clubs.hand_over, club_id, account.id, who)


@router.post("/api/clubs/{club_id}/invitations", status_code=status.HTTP_201_CREATED)
async def invite(club_id: str, body: NewInvitation, request: Request,
                 account: SignedIn) -> InvitationView:
    """A new invitation link (admins)."""
    state = state_of(request)
    limit(state.invitations, str(account.id), "invitations")
    lifetime = None if body.hours is None else timedelta(hours=body.hours)
    invitation = await call(request, state.clubs.invite, club_id, account.id, lifetime,
                            body.uses, body.approval)
    return _invitation(request, invitation)


@router.get("/api/clubs/{club_id}/invitations")
async def invitations(club_id: str, request: Request,
                      account: SignedIn) -> list[InvitationView]:
    """The club's invitations still valid (admins)."""
    listed = await call(request, state_of(request).clubs.invitations, club_id, account.id)
    return [_invitation(request, invitation) for invitation in listed]


@router.delete("/api/clubs/{club_id}/invitations/{code}",
               status_code=status.HTTP_204_NO_CONTENT)
async def revoke(club_id: str, code: str, request: Request, account: SignedIn) -> None:
    """Revoke an invitation (admins)."""
    await call(request, state_of(request).clubs.revoke, club_id, account.id, code)


@router.get("/api/club-invitations/{code}")
async def invitation(code: str, request: Request, account: SignedIn) -> InvitationInfo:
    """What an invitation's link shows: the club's name and size."""
    limit(state_of(request).joins, request.client.host if request.client else "", "joins")
    found, name, count = await call(request, state_of(request).clubs.invitation, code)
    return InvitationInfo(club=name, members=count, approval=found.approval)


@router.post("/api/club-invitations/{code}")
async def join(code: str, request: Request, account: SignedIn) -> ClubJoined:
    """Join the club by its invitation (or ask to, where the invitation needs approval)."""
    limit(state_of(request).joins, request.client.host if request.client else "", "joins")
    club_id, member = await call(request, state_of(request).clubs.join, code, account.id)
    return ClubJoined(club=club_id, member=member)


@router.get("/api/club-invitations/{code}/qr.svg")
async def invitation_qr(code: str, request: Request) -> Response:
    """The invitation's link as a QR code (SVG)."""
    svg = io.BytesIO()
    segno.make(f"{request.base_url}clubs/join/{code}", error="m").save(
        svg, kind="svg", scale=4, border=2, xmldecl=False)
    return Response(svg.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=3600"})


@router.get("/api/clubs/{club_id}/requests")
async def requests(club_id: str, request: Request, account: SignedIn) -> list[RequestView]:
    """The requests to join awaiting the admins (admins)."""
    listed = await call(request, state_of(request).clubs.requests, club_id, account.id)
    return [RequestView(username=r.username, created=r.created) for r in listed]


@router.post("/api/clubs/{club_id}/requests/{username}", status_code=status.HTTP_204_NO_CONTENT)
async def decide(club_id: str, username: str, body: Decision, request: Request,
                 account: SignedIn) -> None:
    """An admin accepts or declines a request to join."""
    clubs = state_of(request).clubs
    pending = await call(request, clubs.requests, club_id, account.id)
    for asking in pending:
        if asking.username.casefold() == username.casefold():
            await call(request, clubs.decide, club_id, account.id, asking.account_id,
                       body.accept)
            return
    await call(request, clubs.decide, club_id, account.id, -1, body.accept)  # no_such_request
