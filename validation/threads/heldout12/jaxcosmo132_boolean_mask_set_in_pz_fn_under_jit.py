# source: https://github.com/DifferentiableUniverseInitiative/jax_cosmo/issues/132
# expect: trace-time-error at line 70
# runtime: ERROR NonConcreteBooleanIndexError
# why: the custom n(z) builds a boolean mask from the redshift grid and writes through it with nz.at[selection].set(0.); once the redshift distribution is evaluated under jit the mask is traced and boolean-mask indexing raises NonConcreteBooleanIndexError.

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


# --- end harness ---
import jax  # scaffolding
import jax.numpy as np  # scaffolding
from jax.tree_util import register_pytree_node_class  # scaffolding


class jc:  # scaffolding: stand-in namespace for jax_cosmo
    class redshift:
        @register_pytree_node_class
        class redshift_distribution:
            def __init__(self, *args, gals_per_arcmin2=1.0, zmax=10.0):
                self.params = args
                self.config = {"gals_per_arcmin2": gals_per_arcmin2, "zmax": zmax}
                self._norm = 1.0

            def __call__(self, z):
                return self.pz_fn(z) / self._norm

            def tree_flatten(self):
                return (self.params, self.config)

            @classmethod
            def tree_unflatten(cls, aux_data, children):
                return cls(*children, **aux_data)


@register_pytree_node_class
class binned_nz(jc.redshift.redshift_distribution):

    def __init__(self, *args, **kwargs):

        # Note we don't want to renromalise (as the definition would redifine this to default gals_per_arcmin2)
        super(binned_nz, self).__init__(*args, **kwargs)
        self._norm = 1.
    
    def pz_fn(self, z):

        lower, upper, nz_gen = self.params
        nz = nz_gen(z)


        selection = np.logical_or(z <= lower, z > upper)
        nz = nz.at[selection].set(0.)

        return nz  # scaffolding: the method continues with a commented-out block


nz = binned_nz(0.3, 0.6, lambda z: z ** 2 * np.exp(-(z / 0.5) ** 1.5))  # scaffolding
z = np.linspace(0.0, 4.0, 513)  # scaffolding
try:  # scaffolding
    out = jax.jit(lambda z: nz(z))(z)  # scaffolding
    print(out.shape)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
