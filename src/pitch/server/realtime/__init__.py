"""The table socket: connections, the socket protocol and the process's socket budget."""
