# source: https://github.com/lenstronomy/JAXtronomy/pull/65
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: after the PR only self, z_start, z_stop and include_z_start are static; the distances are traced, so four calls with new T_ij_end values compile once (the PR notes it still recompiles for each new z_start or z_stop, which stay fixed here).
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


from functools import partial

import jax
import jax.numpy as jnp
from jax import jit

jax.config.update("jax_enable_x64", True)


class _SIS:  # scaffolding: singular isothermal sphere deflection
    def derivatives(self, x, y, theta_E, center_x=0, center_y=0):
        dx, dy = x - center_x, y - center_y
        r = jnp.sqrt(dx**2 + dy**2)
        return theta_E * dx / r, theta_E * dy / r


class MultiPlaneBase:  # jaxtronomy/LensModel/MultiPlane/multi_plane_base.py after PR #65, cut
    def __init__(self, lens_redshift_list, T_ij_list, T_z_list, reduced2physical):  # scaffolding: distances given instead of computed from a cosmology
        self._lens_redshift_list = lens_redshift_list
        self._sorted_redshift_index = sorted(range(len(lens_redshift_list)), key=lambda i: lens_redshift_list[i])
        self._T_ij_list = T_ij_list
        self._T_z_list = T_z_list
        self._reduced2physical_factor = reduced2physical
        self.func_list = [_SIS() for _ in lens_redshift_list]

    @partial(jit, static_argnums=(0, 5, 6, 8))
    def ray_shooting_partial_comoving(
        self,
        x,
        y,
        alpha_x,
        alpha_y,
        z_start,
        z_stop,
        kwargs_lens,
        include_z_start=False,
        T_ij_start=None,
        T_ij_end=None,
    ):
        if z_start != 0 and T_ij_start is None:
            raise ValueError(
                "In jaxtronomy, either z_start must be zero or T_ij_start must be provided."
            )
        if T_ij_end is None:
            raise ValueError(
                "T_ij_end must be provided in jaxtronomy."
            )
        x = jnp.array(x, dtype=float)
        y = jnp.array(y, dtype=float)
        alpha_x = jnp.array(alpha_x)
        alpha_y = jnp.array(alpha_y)
        for i, idex in enumerate(self._sorted_redshift_index):
            z_lens = self._lens_redshift_list[idex]
            if (
                self._start_condition(include_z_start, z_lens, z_start)
                and z_lens <= z_stop
            ):
                if i == 0:
                    if T_ij_start is None:
                        delta_T = self._T_ij_list[0]
                    else:
                        delta_T = T_ij_start
                else:
                    delta_T = self._T_ij_list[i]
                x, y = self._ray_step_add(x, y, alpha_x, alpha_y, delta_T)
                alpha_x, alpha_y = self._add_deflection(
                    x, y, alpha_x, alpha_y, kwargs_lens, i
                )
        delta_T = T_ij_end
        x, y = self._ray_step_add(x, y, alpha_x, alpha_y, delta_T)
        return x, y, alpha_x, alpha_y

    @staticmethod
    def _ray_step_add(x, y, alpha_x, alpha_y, delta_T):
        x += alpha_x * delta_T
        y += alpha_y * delta_T
        return x, y

    @partial(jit, static_argnums=(0, 6))
    def _add_deflection(self, x, y, alpha_x, alpha_y, kwargs_lens, index):
        theta_x, theta_y = x / self._T_z_list[index], y / self._T_z_list[index]  # scaffolding: _co_moving2angle
        k = self._sorted_redshift_index[index]
        alpha_x_red, alpha_y_red = self.func_list[k].derivatives(
            theta_x, theta_y, **kwargs_lens[k]
        )
        alpha_x_phys = alpha_x_red * self._reduced2physical_factor[index]  # scaffolding: _reduced2physical_deflection
        alpha_y_phys = alpha_y_red * self._reduced2physical_factor[index]
        return alpha_x - alpha_x_phys, alpha_y - alpha_y_phys

    @staticmethod
    def _start_condition(inclusive, z_lens, z_start):
        if inclusive:
            return z_lens >= z_start
        else:
            return z_lens > z_start


mp = MultiPlaneBase([0.3, 0.6], [900.0, 700.0], [900.0, 1600.0], [1.5, 1.2])  # scaffolding
kwargs_lens = [{"theta_E": 1.0}, {"theta_E": 0.3, "center_x": 0.2}]
x0, y0 = jnp.zeros(5), jnp.zeros(5)
theta_x, theta_y = jnp.linspace(-1.5, 1.5, 5), jnp.linspace(0.5, 1.0, 5)
n_calls = 4  # scaffolding
for h in range(n_calls):  # scaffolding: a cosmology sampler changes the distance to the source plane on every likelihood call
    T_ij_end = 800.0 + 10.0 * h
    x, y, ax, ay = mp.ray_shooting_partial_comoving(x0, y0, theta_x, theta_y, 0, 1.5, kwargs_lens, False, None, T_ij_end)
_report({"jit(ray_shooting_partial_comoving)"}, n_calls)  # scaffolding
