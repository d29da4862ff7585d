"""SB9xx: findings about slurmspec itself (its suppression comments, its own failures)."""
