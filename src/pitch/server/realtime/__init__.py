"""The table socket: its connections (admission, chat, hints) and the process's
socket budget."""
