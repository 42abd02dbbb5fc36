# source: https://github.com/ymahlau/fdtdx/pull/347
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: PR #347 stores sigma_end_calculated.astype(float) instead of float(...), which keeps it a (traced) array, so the same jitted run traces and compiles once for 2 calls.
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
import dataclasses  # scaffolding
import jax
import jax.numpy as jnp

eta0 = 376.730313668  # scaffolding: fdtdx.constants.eta0


@dataclasses.dataclass(frozen=True)  # scaffolding: stand-in for fdtdx's autoinit pytree and BaseBoundary
class PerfectlyMatchedLayer:  # scaffolding
    grid_thickness: int = 10  # scaffolding
    resolution: float = 50e-9  # scaffolding
    sigma_end: float | None = None
    sigma_order: float | None = 3.0

    @property  # scaffolding
    def thickness(self) -> int:  # scaffolding
        return self.grid_thickness  # scaffolding

    @property  # scaffolding
    def _config(self):  # scaffolding
        return self  # scaffolding

    def aset(self, name, value):  # scaffolding: fdtdx's functional attribute setter
        return dataclasses.replace(self, **{name: value})  # scaffolding

    def place_on_grid(self, grid_slice_tuple, config, key):
        """Place the PML on the grid and calculate any remaining defaults."""
        # Now calculate sigma_end if it wasn't provided by the user
        if self.sigma_end is None:
            assert self.sigma_order is not None, "sigma_order should be set by __post_init__"
            pml_thickness = self.thickness * self._config.resolution
            sigma_end_calculated = -(self.sigma_order + 1) * jnp.log(1e-6) / (2 * (eta0 / 1.0) * pml_thickness)
            self = self.aset("sigma_end", sigma_end_calculated.astype(float))

        return self


@jax.jit  # scaffolding: the 'Wrong' pattern from the PR text, setup inside the jitted run
def run(key):  # scaffolding
    pml = PerfectlyMatchedLayer().place_on_grid(None, None, key)  # scaffolding
    return pml.sigma_end * jnp.ones(3)  # scaffolding


calls = 0  # scaffolding
for i in range(2):  # scaffolding
    run(jax.random.PRNGKey(i))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(run)"}, calls)  # scaffolding
