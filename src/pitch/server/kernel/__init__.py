"""What every room shares: errors, text checks, rate limits, the API's shapes, the event bus."""
