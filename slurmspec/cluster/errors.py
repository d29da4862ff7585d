"""``ProfileError``, in a module of its own so the lint path can catch it without loading the profile model."""


class ProfileError(ValueError):
    """A profile (or scontrol output) that cannot be used; the message names the file and the key or line."""
