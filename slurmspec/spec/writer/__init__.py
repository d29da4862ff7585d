"""The text a spec is written as: the ``#SBATCH`` header, the ``[env]`` exports, the launch block and the
workflow pieces (staging, checkpoint, monitor, chain, stop).

In ``spec/`` (not ``emit/``) because the loader judges a spec's task layout on the job model of the launch
block these write (``spec/layout.py``); ``slurmspec.emit`` puts the pieces together into the whole script.
"""
