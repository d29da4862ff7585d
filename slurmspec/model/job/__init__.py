"""What the job will do: the effective request after sbatch's merge of the directives
(``request.py``), and the job model built from it (``model.py``: components, steps, tasks, with
``components.py``, ``steps.py``, ``gpus.py``, ``env.py``, ``types.py``), where its logs land
(``logs.py``) and which interpreter runs the script (``interpreter.py``). Rules read it through
``ctx.job``; the views rules compare live in ``slurmspec.model.views``."""
