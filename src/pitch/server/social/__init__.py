"""The social room: friends, blocks, invites to a table and reports (docs/server.md,
"Friends and safety"). One way in: :class:`Social`."""

from pitch.server.social.room import Social, SocialLimits

__all__ = ["Social", "SocialLimits"]
