"""The ``#SBATCH`` header of an emitted script: typed keys in table order, then raw options, then hetjob components."""

from __future__ import annotations

from slurmspec.spec.writer.quote import directive_option
from slurmspec.spec.fields import SECTIONS
from slurmspec.spec.model import Spec
from slurmspec.spec.raw import split_raw
from slurmspec.spec.values import option_text

DEFAULT_SHEBANG = "#!/bin/bash"


def header_lines(spec: Spec, gpu_form=None) -> list[str]:
    """The header lines; ``gpu_form`` (``slurmspec.emit.cluster_fit.GpuForm``) is how a cluster wants GPUs written."""
    lines = [spec.get("sbatch", "shebang", DEFAULT_SHEBANG)]
    lines.extend(spec.get("sbatch", "lines", ()))
    gpu_type = spec.get("resources", "gpu_type") if gpu_form is None else gpu_form.gpu_type
    for section_name in ("job", "resources"):
        section = spec.section(section_name)
        if section is None:
            continue
        for field in SECTIONS[section_name]:
            if field.option is None or field.key not in section:
                continue
            value = section.get(field.key)
            if field.key == "requeue":
                lines.append(f"#SBATCH --{'requeue' if value else 'no-requeue'}")
                continue
            if field.key == "gpus_per_node" and gpu_form is not None and gpu_form.option == "gres":
                lines.append("#SBATCH " + directive_option("gres", ":".join(["gpu", *([gpu_type] if gpu_type else []),
                                                                              str(value)])))
                continue
            lines.append("#SBATCH " + directive_option(field.option, option_text(field, value, gpu_type)))
    lines.extend(_raw(spec.get("sbatch", "options", ())))
    for hetjob in spec.all("hetjob"):
        lines.append("#SBATCH hetjob")
        lines.extend([*hetjob.get("lines", ()), *_raw(hetjob.get("options", ()))])
    return lines


def _raw(words) -> list[str]:
    return ["#SBATCH " + directive_option(*split_raw(word)) for word in words]
