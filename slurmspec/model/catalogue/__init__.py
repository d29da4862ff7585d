"""The sbatch option catalogue (``options.py``): every option per release, its short and long names,
whether it takes a value, and which value syntax (``slurmspec.model.values``) reads it."""
