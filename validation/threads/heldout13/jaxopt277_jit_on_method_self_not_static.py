# source: https://github.com/google/jaxopt/issues/277
# expect: bad-static-spec at line 49
# runtime: ERROR TypeError
# why: A bare @jit decorates the instance method run, so self (a plain Python CustomLM23D object) is passed as a traced argument and the call raises TypeError before tracing; self would have to be static (and the Python while loop on a traced flag would then need lax control flow).

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
from jax import jit  # scaffolding
import jax.numpy as npj  # scaffolding


class CustomLM23D:  # scaffolding: stand-in shell for the reporter's solver class
    def __init__(self, iters=5, tol=1e-6, damping_factor=1e-3):
        self.iters = iters
        self.tol = tol
        self.found = False
        self.damping_factor = damping_factor

    def res_func(self, params, cams, joints_pred_2d, z_pred_depth):  # scaffolding
        return cams @ params - joints_pred_2d - z_pred_depth

    def init_state(self, params, cams, joints_pred_2d, z_pred_depth):  # scaffolding
        residual = self.res_func(params, cams, joints_pred_2d, z_pred_depth)
        jtj = cams.T @ cams
        gradient = cams.T @ residual
        return gradient, jtj, residual, 0.5 * residual @ residual

    @jit
    def run(self, init_params, cams, joints_pred_2d, z_pred_depth):
        params = init_params
        iter_num = 0
        gradient, jtj, residual, loss = self.init_state(params, cams, joints_pred_2d, z_pred_depth)

        while iter_num < self.iters and not self.found:
            error = npj.linalg.norm(gradient)
            self.found = error < self.tol

            iter_num += 1
            g = jtj + self.damping_factor * npj.eye(jtj.shape[0])
            delta_params = npj.linalg.inv(g) @ gradient
            # follow lm jaxopt
            delta_params = -delta_params
            params_new = params + delta_params
            residual_next = self.res_func(params_new, cams, joints_pred_2d, z_pred_depth)
            gain_ratio_denom = 0.5 * delta_params.T @ (self.damping_factor * delta_params - gradient)  # scaffolding: the stored comment is cut mid-line
            params = params_new  # scaffolding
            gradient, jtj, residual, loss = self.init_state(params, cams, joints_pred_2d, z_pred_depth)  # scaffolding
        return params  # scaffolding


cams = npj.eye(3) * 2.0  # scaffolding
joints_pred_2d = npj.ones(3)  # scaffolding
z_pred_depth = npj.zeros(3)  # scaffolding
solver = CustomLM23D()  # scaffolding
try:  # scaffolding
    solver.run(npj.zeros(3), cams, joints_pred_2d, z_pred_depth)
    _report({"jit(run)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
