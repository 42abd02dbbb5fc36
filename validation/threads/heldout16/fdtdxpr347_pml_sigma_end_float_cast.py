# source: https://github.com/ymahlau/fdtdx/pull/347
# expect: trace-time-error at line 57
# runtime: ERROR ConcretizationTypeError
# why: place_on_grid computes sigma_end with jnp.log and stores float(sigma_end_calculated); when the setup runs inside jax.jit the jnp result is a tracer, so float() raises ConcretizationTypeError (the PR removes this cast).
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
            self = self.aset("sigma_end", float(sigma_end_calculated))

        return self


@jax.jit  # scaffolding: the 'Wrong' pattern from the PR text, setup inside the jitted run
def run(key):  # scaffolding
    pml = PerfectlyMatchedLayer().place_on_grid(None, None, key)  # scaffolding
    return pml.sigma_end * jnp.ones(3)  # scaffolding


try:  # scaffolding
    run(jax.random.PRNGKey(0))  # scaffolding
    _report({"jit(run)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
