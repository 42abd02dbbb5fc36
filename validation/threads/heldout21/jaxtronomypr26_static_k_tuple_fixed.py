# source: https://github.com/lenstronomy/JAXtronomy/pull/26
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with k passed as the tuple (0,) that the PR's docstrings now ask for, the static argument hashes and ray_shooting compiles once for two calls (alpha is inlined).
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


import jax
from jax import jit, numpy as jnp
from functools import partial
import numpy as np

jax.config.update("jax_enable_x64", True)


def convert_bool_list(n, k=None):  # scaffolding: lenstronomy.Util.util.convert_bool_list (lenstronomy not installed)
    if k is None:
        bool_list = [True] * n
    elif isinstance(k, (int, np.integer)):
        bool_list = [False] * n
        bool_list[k] = True
    else:
        bool_list = [False] * n
        for i, k_i in enumerate(k):
            if k_i is not False:
                if k_i is True:
                    bool_list[i] = True
                elif k_i < n:
                    bool_list[k_i] = True
                else:
                    raise ValueError("k as set by %s is not convertable in a bool string!" % k)
    return bool_list


class _SIS:  # scaffolding: a singular isothermal sphere profile
    def derivatives(self, x, y, theta_E, center_x=0, center_y=0):
        dx, dy = x - center_x, y - center_y
        r = jnp.sqrt(dx**2 + dy**2)
        return theta_E * dx / r, theta_E * dy / r


class SinglePlane:  # jaxtronomy/LensModel/single_plane.py after PR #26, cut to ray_shooting and alpha
    def __init__(self, lens_model_list):  # scaffolding: ProfileListBase.__init__ cut
        self.func_list = [_SIS() for _ in lens_model_list]
        self._num_func = len(self.func_list)

    def _bool_list(self, k=None):
        return convert_bool_list(n=self._num_func, k=k)

    @partial(jit, static_argnums=(0,4))
    def ray_shooting(self, x, y, kwargs, k=None):
        dx, dy = self.alpha(x, y, kwargs, k=k)
        return x - dx, y - dy

    @partial(jit, static_argnums=(0,4))
    def alpha(self, x, y, kwargs, k=None):
        x = jnp.array(x, dtype=float)
        y = jnp.array(y, dtype=float)

        if isinstance(k, int):
            return self.func_list[k].derivatives(x, y, **kwargs[k])
        bool_list = self._bool_list(k)
        f_x, f_y = jnp.zeros_like(x), jnp.zeros_like(x)
        for i, func in enumerate(self.func_list):
            if bool_list[i] is True:
                f_x_i, f_y_i = func.derivatives(x, y, **kwargs[i])
                f_x += f_x_i
                f_y += f_y_i

        return f_x, f_y


lens = SinglePlane(["SIS", "SIS"])  # scaffolding
kwargs_lens = [{"theta_E": 1.0, "center_x": 0.0, "center_y": 0.0}, {"theta_E": 0.2, "center_x": 1.5, "center_y": 0.3}]
x, y = jnp.linspace(-2.0, 2.0, 10), jnp.linspace(-1.0, 1.0, 10)
try:  # scaffolding
    for _ in range(2):  # scaffolding
        beta_x, beta_y = lens.ray_shooting(x, y, kwargs_lens, k=(0,))  # the PR: k must now be a tuple
    _report({"jit(ray_shooting)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
