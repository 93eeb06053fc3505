"""Accounts (optional): sign-up, sign-in, sessions, the sign-in back-off, and the
seats a signed-in player takes (docs/server.md, "Accounts")."""
