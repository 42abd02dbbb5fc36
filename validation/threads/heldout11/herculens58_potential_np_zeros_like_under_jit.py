# source: https://github.com/Herculens/herculens/issues/58
# expect: trace-time-error at line 84
# runtime: ERROR TracerArrayConversionError
# why: MassModel.potential allocates its accumulator with np.zeros_like(x); a plain call works, but under jax.jit x is a tracer and NumPy's array conversion raises, so fermat_potential cannot be used inside a jitted log-density.

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
from functools import partial
import numpy as np
import jax.numpy as jnp
import jax
from jax import jit, lax


class SIS(object):  # scaffolding: closed-form singular isothermal sphere stand-in
    def function(self, x, y, theta_E, center_x=0, center_y=0):  # scaffolding
        return theta_E * jnp.sqrt((x - center_x) ** 2 + (y - center_y) ** 2)  # scaffolding

    def derivatives(self, x, y, theta_E, center_x=0, center_y=0):  # scaffolding
        r = jnp.sqrt((x - center_x) ** 2 + (y - center_y) ** 2)  # scaffolding
        return theta_E * (x - center_x) / r, theta_E * (y - center_y) / r  # scaffolding


class MassModel(object):
    """An arbitrary list of lens models."""
    def __init__(self, profile_list, use_jax_scan=False, verbose=False, **kwargs):
        self.profile_type_list = profile_list
        self.func_list = [SIS() for _ in profile_list]  # scaffolding: MassModelBase.__init__
        self._num_func = len(self.func_list)  # scaffolding
        self._use_jax_scan = use_jax_scan
        self._repeated_profile_mode = False

    def _bool_list(self, k):  # scaffolding: util.convert_bool_list for k=None
        return [True] * self._num_func  # scaffolding

    @partial(jit, static_argnums=(0, 4))
    def ray_shooting(self, x, y, kwargs, k=None):
        """
        maps image to source position (inverse deflection)
        """
        dx, dy = self.alpha(x, y, kwargs, k=k)
        return x - dx, y - dy

    def fermat_potential(self, x_image, y_image, kwargs_lens, x_source=None, y_source=None, k=None):
        """
        fermat potential (negative sign means earlier arrival time)
        """
        potential = self.potential(x_image, y_image, kwargs_lens, k=k)
        if x_source is None or y_source is None:
            x_source, y_source = self.ray_shooting(x_image, y_image, kwargs_lens, k=k)
        geometry = ((x_image - x_source)**2 + (y_image - y_source)**2) / 2.
        return geometry - potential

    def potential(self, x, y, kwargs, k=None):
        """
        lensing potential
        """
        # x = np.array(x, dtype=float)
        # y = np.array(y, dtype=float)
        if isinstance(k, int):
            return self.func_list[k].function(x, y, **kwargs[k])
        bool_list = self._bool_list(k)
        potential = np.zeros_like(x)
        for i, func in enumerate(self.func_list):
            if bool_list[i] is True:
                potential += func.function(x, y, **kwargs[i])
        return potential

    def alpha(self, x, y, kwargs, k=None):
        if isinstance(k, int):
            return self.func_list[k].derivatives(x, y, **kwargs[k])
        else:
            return self._alpha_loop(x, y, kwargs, k=k)

    def _alpha_loop(self, x, y, kwargs, k=None):
        bool_list = self._bool_list(k)
        f_x, f_y = jnp.zeros_like(x), jnp.zeros_like(x)
        for i, func in enumerate(self.func_list):
            if bool_list[i] is True:
                f_x_i, f_y_i = func.derivatives(x, y, **kwargs[i])
                f_x += f_x_i
                f_y += f_y_i
        return f_x, f_y


mass_model = MassModel(["SIS"])  # scaffolding
kwargs_lens = [{"theta_E": jnp.array(1.2), "center_x": 0.0, "center_y": 0.0}]  # scaffolding
x_img, y_img = jnp.array([1.0, -0.5]), jnp.array([0.3, -1.1])  # scaffolding
print(mass_model.fermat_potential(x_img, y_img, kwargs_lens))  # scaffolding: a plain call works
log_density_term = jax.jit(lambda x, y, kw: mass_model.fermat_potential(x, y, kw))  # scaffolding
try:  # scaffolding
    print(log_density_term(x_img, y_img, kwargs_lens))  # scaffolding
    print(log_density_term(x_img, y_img, kwargs_lens))  # scaffolding
    _report({"jit(<lambda>)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
