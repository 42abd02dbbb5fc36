# source: https://github.com/PyAutoLabs/PyAutoFit/pull/1229
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: fit_for_visualization builds jax.jit(self.fit_from) once, caches it on the analysis and reuses it, so three visualizations with new instance values compile once.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


import logging

logger = logging.getLogger(__name__)


class Analysis:  # autofit/non_linear/analysis/analysis.py at the PR commit, cut
    def __init__(self, use_jax: bool = False, use_jax_for_visualization: bool = False, **kwargs):
        import os
        if os.environ.get("PYAUTO_DISABLE_JAX") == "1":
            use_jax = False
            use_jax_for_visualization = False

        if use_jax_for_visualization and not use_jax:
            logger.warning(
                "use_jax_for_visualization=True requires use_jax=True; "
                "disabling use_jax_for_visualization."
            )
            use_jax_for_visualization = False

        self._use_jax = use_jax
        self._use_jax_for_visualization = use_jax_for_visualization
        self.kwargs = kwargs

    def fit_for_visualization(self, instance):
        """
        Build the fit used by the visualizer (docstring shortened).
        """
        if not self._use_jax_for_visualization:
            return self.fit_from(instance=instance)

        if getattr(self, "_jitted_fit_from", None) is None:
            import jax

            self._jitted_fit_from = jax.jit(self.fit_from)

        return self._jitted_fit_from(instance)


class _JitFittableAnalysis(Analysis):  # from the PR's test_use_jax_for_visualization.py
    """Analysis with a ``fit_from`` returning a JIT-traceable array."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fit_from_calls = 0

    def log_likelihood_function(self, instance):
        return 0.0

    def fit_from(self, instance):
        import jax.numpy as jnp

        self.fit_from_calls += 1
        return jnp.asarray(instance) * 2.0


analysis = _JitFittableAnalysis(use_jax=True, use_jax_for_visualization=True)
result_1 = analysis.fit_for_visualization(instance=1.0)
result_2 = analysis.fit_for_visualization(instance=3.0)
result_3 = analysis.fit_for_visualization(instance=5.0)  # scaffolding: a third visualization
_report({"jit(fit_from)"}, 3)  # scaffolding
