"""What a rule is written with: the ``@rule`` record and the ``Context`` it reads the script through.

Below ``slurmspec.rules`` (which imports it) and below the engine that runs the rules
(``slurmspec.lint``, which imports both): a rule never imports the engine.
"""
