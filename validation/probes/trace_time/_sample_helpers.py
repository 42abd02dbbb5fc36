"""A helper module for p_numpyro_sample_helper_module.py (not a probe itself)."""


def clip_scale(scale):
    if scale > 1.0:
        return 1.0
    return scale
