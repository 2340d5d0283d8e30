"""Running detached: spawning the daemon, following it from a terminal, and the cron scheduler."""
