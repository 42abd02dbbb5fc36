# source: https://github.com/act3-ace/run-time-assurance/commit/2223e717bb90d7bfebe8fd00d327cee53b93a40a
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: after the commit step_size is a static argname of the jitted _generate_barrier_constraint_mats, so num_steps is a concrete int and the barrier matrices compile once for the 8 control steps (same step_size).

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


import abc
import types
import warnings
from collections import OrderedDict
from typing import Any, Dict, Optional, Union

import jax.numpy as jnp
import numpy as np
from jax import grad, jacfwd, jit, vmap


def _solve_qp_1d(G, a, C, b, meq):  # scaffolding: quadprog is not installed; exact QP for a 1-D control, G = I
    x = float(a[0])  # scaffolding
    lo, hi = -np.inf, np.inf  # scaffolding
    for c, bb in zip(C[0], b):  # scaffolding: constraints c * x >= bb
        if c > 0:  # scaffolding
            lo = max(lo, bb / c)  # scaffolding
        elif c < 0:  # scaffolding
            hi = min(hi, bb / c)  # scaffolding
    if lo > hi:  # scaffolding
        raise ValueError("constraints are inconsistent, no solution")  # scaffolding
    return (np.array([min(max(x, lo), hi)]),)  # scaffolding


quadprog = types.SimpleNamespace(solve_qp=_solve_qp_1d)  # scaffolding


class SolverError(Exception):  # scaffolding: run_time_assurance.utils.SolverError
    pass  # scaffolding


class SolverWarning(UserWarning):  # scaffolding: run_time_assurance.utils.SolverWarning
    pass  # scaffolding


# --- run_time_assurance/utils.py ---
@jit
def to_jnp_array_jit(x: np.ndarray) -> jnp.ndarray:
    """
    Converts a numpy array to a jax numpy array with a jit compiled function
    """
    return jnp.array(x)


# --- run_time_assurance/constraint.py (docstrings cut) ---
class ConstraintModule(abc.ABC):
    """Base class implementation for safety constraints"""

    def __init__(self, alpha: 'ConstraintStrengthener' = None):
        assert isinstance(alpha, ConstraintStrengthener), "alpha must be an instance/sub-class of ConstraintStrenthener"
        self._alpha = alpha
        self._compose()

    def _compose(self):
        self._compute_fn = jit(self._compute)
        self._grad_fn = jit(grad(self._compute))

    def __call__(self, state: jnp.ndarray) -> float:
        return self._compute_fn(state)

    @abc.abstractmethod
    def _compute(self, state: jnp.ndarray) -> float:
        raise NotImplementedError()

    def grad(self, state: jnp.ndarray) -> jnp.ndarray:
        return self._grad_fn(state)

    def alpha(self, x: float) -> float:
        if self._alpha is None:
            return None
        return self._alpha(x)


class ConstraintStrengthener(abc.ABC):
    """Strengthing function used to soften Nagumo's condition outside of constraint set boundary"""

    @abc.abstractmethod
    def __call__(self, x) -> float:
        raise NotImplementedError


# --- run_time_assurance/controller.py (docstrings cut) ---
class RTABackupController(abc.ABC):
    """Base Class for backup controllers used by backup control based RTA methods"""

    def __init__(self, controller_state_initial: Union[jnp.ndarray, Dict[str, jnp.ndarray], None] = None):
        self.controller_state_initial = self._copy_controller_state(controller_state_initial)
        self.controller_state_saved = None
        self.controller_state = self._copy_controller_state(self.controller_state_initial)
        self._compose()

    def _compose(self):
        self._jacobian = jacfwd(self._generate_control, has_aux=True)
        self._generate_control_fn = jit(self._generate_control)

    def _copy_controller_state(self, controller_state: Union[jnp.ndarray, Dict[str, jnp.ndarray], None]):
        if controller_state is None:
            copied_state = None
        elif isinstance(controller_state, jnp.ndarray):
            copied_state = jnp.copy(controller_state)
        elif isinstance(controller_state, dict):
            copied_state = {k: jnp.copy(v) for k, v in controller_state.items()}
        else:
            raise TypeError("controller_state to copy must be one of (jnp.ndarray, Dict[str,jnp.ndarray], None)")
        return copied_state

    def generate_control(self, state: jnp.ndarray, step_size: float) -> jnp.ndarray:
        controller_output = self._generate_control_fn(state, step_size, self.controller_state)
        if (not isinstance(controller_output, tuple)) or len(controller_output) != 2:
            raise ValueError('_generate_control should return 2 values: the control vector and the updated controller state')
        control, self.controller_state = controller_output
        return control

    def generate_control_with_controller_state(self, state, step_size, controller_state=None):
        return self._generate_control(state, step_size, controller_state)

    @abc.abstractmethod
    def _generate_control(self, state, step_size, controller_state=None):
        raise NotImplementedError()

    def save(self):
        self.controller_state_saved = self._copy_controller_state(self.controller_state)

    def restore(self):
        self.controller_state = self.controller_state_saved


# --- run_time_assurance/rta/base.py (docstrings cut) ---
class RTAModule(abc.ABC):
    """Base class for RTA modules"""

    def __init__(self, *args: Any, control_bounds_high=None, control_bounds_low=None,
                 jit_compile_dict: Dict[str, bool] = None, **kwargs: Any):
        if isinstance(control_bounds_high, (list, np.ndarray)):
            control_bounds_high = jnp.array(control_bounds_high, float)
        if isinstance(control_bounds_low, (list, np.ndarray)):
            control_bounds_low = jnp.array(control_bounds_low, float)
        self.control_bounds_high = control_bounds_high
        self.control_bounds_low = control_bounds_low
        if jit_compile_dict is None:
            self.jit_compile_dict = {}
        else:
            self.jit_compile_dict = jit_compile_dict
        self.enable = True
        self.intervening = False
        self.control_desired: Optional[np.ndarray] = None
        self.control_actual: Optional[np.ndarray] = None
        super().__init__(*args, **kwargs)
        self._setup_properties()
        self.compose()

    def _setup_properties(self):
        """Additional initialization function to allow custom initialization to run after baseclass initialization,
        but before constraint initialization"""

    def compose(self):
        """applies jax composition transformations (grad, jit, jacobian etc.)"""

    def _get_state(self, input_state) -> jnp.ndarray:
        if isinstance(input_state, jnp.ndarray):
            return input_state
        return to_jnp_array_jit(input_state)

    def filter_control(self, input_state, step_size: float, control_desired: np.ndarray) -> np.ndarray:
        self.control_desired = np.copy(control_desired)
        if self.enable:
            state = self._get_state(input_state)
            control_actual = self._clip_control(self._filter_control(state, step_size, to_jnp_array_jit(control_desired)))
            self.control_actual = np.array(control_actual)
        else:
            self.control_actual = np.copy(control_desired)
        return np.copy(self.control_actual)

    @abc.abstractmethod
    def _filter_control(self, state: jnp.ndarray, step_size: float, control: jnp.ndarray) -> jnp.ndarray:
        raise NotImplementedError()

    def _clip_control(self, control: jnp.ndarray) -> jnp.ndarray:
        if self.control_bounds_low is not None or self.control_bounds_high is not None:
            control = jnp.clip(control, self.control_bounds_low, self.control_bounds_high)  # type: ignore
        return control


class ConstraintBasedRTA(RTAModule):
    """Base class for constraint-based RTA systems"""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.constraints = self._setup_constraints()

    @abc.abstractmethod
    def _setup_constraints(self) -> OrderedDict[str, ConstraintModule]:
        raise NotImplementedError()

    @abc.abstractmethod
    def _pred_state(self, state: jnp.ndarray, step_size: float, control: jnp.ndarray) -> jnp.ndarray:
        raise NotImplementedError()


class BackupControlBasedRTA(ConstraintBasedRTA):
    """Base class for backup control based RTA algorithms"""

    def __init__(self, *args: Any, backup_controller: RTABackupController, **kwargs: Any):
        self.backup_controller = backup_controller
        super().__init__(*args, **kwargs)

    def backup_control(self, state: jnp.ndarray, step_size: float) -> jnp.ndarray:
        control = self.backup_controller.generate_control(state, step_size)
        return self._clip_control(control)

    def backup_controller_save(self):
        self.backup_controller.save()

    def backup_controller_restore(self):
        self.backup_controller.restore()


# --- run_time_assurance/rta/asif.py (after the commit; docstrings cut) ---
class ASIFModule(ConstraintBasedRTA):
    """Base class for Active Set Invariance Filter Optimization RTA"""

    def __init__(self, *args: Any, epsilon: float = 1e-2, control_dim: int, solver_exception: bool = False, **kwargs: Any):
        self.epsilon = epsilon
        super().__init__(*args, **kwargs)

        self.control_dim = control_dim
        self.solver_exception = solver_exception
        self.obj_weight = np.eye(self.control_dim)
        self.ineq_weight_actuation, self.ineq_constant_actuation = self._generate_actuation_constraint_mats()

    def compose(self):
        super().compose()
        if self.jit_compile_dict.get('generate_barrier_constraint_mats', True):
            self._generate_barrier_constraint_mats_fn = jit(self._generate_barrier_constraint_mats, static_argnames=['step_size'])
        else:
            self._generate_barrier_constraint_mats_fn = self._generate_barrier_constraint_mats

    def _filter_control(self, state: jnp.ndarray, step_size: float, control: jnp.ndarray) -> jnp.ndarray:
        ineq_weight, ineq_constant = self._generate_barrier_constraint_mats_fn(state, step_size)
        desired_control = np.array(control, dtype=np.float64)
        actual_control = self._optimize(self.obj_weight, desired_control, ineq_weight, ineq_constant)
        self.intervening = self.monitor(desired_control, actual_control)

        return to_jnp_array_jit(actual_control)

    def _generate_actuation_constraint_mats(self) -> tuple[jnp.ndarray, jnp.ndarray]:
        ineq_weight = jnp.empty((0, self.control_dim))
        ineq_constant = jnp.empty(0)

        if self.control_bounds_low is not None:
            c, b = get_lower_bound_ineq_constraint_mats(self.control_bounds_low, self.control_dim)
            ineq_weight = jnp.vstack((ineq_weight, c))
            ineq_constant = jnp.concatenate((ineq_constant, b))

        if self.control_bounds_high is not None:
            c, b = get_lower_bound_ineq_constraint_mats(self.control_bounds_high, self.control_dim)
            c *= -1
            b *= -1
            ineq_weight = jnp.vstack((ineq_weight, c))
            ineq_constant = jnp.concatenate((ineq_constant, b))

        return ineq_weight, ineq_constant

    def _optimize(self, obj_weight, obj_constant, ineq_weight, ineq_constant) -> np.ndarray:
        try:
            opt = quadprog.solve_qp(
                obj_weight, obj_constant, np.array(ineq_weight, dtype=np.float64), np.array(ineq_constant, dtype=np.float64), 0
            )[0]
        except ValueError as e:
            if e.args[0] == "constraints are inconsistent, no solution":
                if not self.solver_exception:
                    warnings.warn(SolverWarning())
                    opt = obj_constant
                else:
                    raise SolverError() from e
            else:
                raise e
        return opt

    def monitor(self, desired_control: np.ndarray, actual_control: np.ndarray) -> bool:
        return bool(np.linalg.norm(desired_control - actual_control) > self.epsilon)

    @abc.abstractmethod
    def _generate_barrier_constraint_mats(self, state: jnp.ndarray, step_size: float) -> tuple[jnp.ndarray, jnp.ndarray]:
        raise NotImplementedError()

    @abc.abstractmethod
    def state_transition_system(self, state: jnp.ndarray) -> jnp.ndarray:
        raise NotImplementedError()

    @abc.abstractmethod
    def state_transition_input(self, state: jnp.ndarray) -> jnp.ndarray:
        raise NotImplementedError()


class ImplicitASIFModule(ASIFModule, BackupControlBasedRTA):
    """Base class implementation of implicit ASIF RTA"""

    def __init__(self, *args: Any, backup_window: float, num_check_all: int = 0, skip_length: int = 1,
                 subsample_constraints_num_least: int = None, backup_controller: RTABackupController, **kwargs: Any):
        self.backup_window = backup_window
        self.num_check_all = num_check_all
        self.skip_length = skip_length
        assert (subsample_constraints_num_least is None) or \
               (isinstance(subsample_constraints_num_least, int) and subsample_constraints_num_least > 0), \
               "subsample_constraints_num_least must be a positive integer or None"
        self.subsample_constraints_num_least = subsample_constraints_num_least
        super().__init__(*args, backup_controller=backup_controller, **kwargs)

    def compose(self):
        self._jacobian = jit(jacfwd(self._backup_state_transition), static_argnums=[1], static_argnames=['step_size'])
        if self.jit_compile_dict.get('generate_ineq_constraint_mats', True):
            self._generate_ineq_constraint_mats_fn = jit(self._generate_ineq_constraint_mats, static_argnames=['num_steps'])
        else:
            self._generate_ineq_constraint_mats_fn = self._generate_ineq_constraint_mats

        if self.jit_compile_dict.get('pred_state', False):
            self._pred_state_fn = jit(self._pred_state, static_argnames=['step_size'])
        else:
            self._pred_state_fn = self._pred_state

        if self.jit_compile_dict.get('integrate', False):
            self._integrate_fn = jit(self.integrate, static_argnames=['step_size', 'Nsteps'])
        else:
            self._integrate_fn = self.integrate

        super().compose()

    def jacobian(self, state: jnp.ndarray, step_size: float, controller_state=None):
        return self._jacobian(state, step_size, controller_state)

    def _backup_state_transition(self, state: jnp.ndarray, step_size: float, controller_state=None):
        return self.state_transition_system(state) + self.state_transition_input(state) @ (
            self.backup_controller.generate_control_with_controller_state(state, step_size, controller_state)[0]
        )

    def _generate_barrier_constraint_mats(self, state: jnp.ndarray, step_size: float) -> tuple[jnp.ndarray, jnp.ndarray]:
        num_steps = int(self.backup_window / step_size) + 1
        traj_states, traj_sensitivities = self._integrate_fn(state, step_size, num_steps)
        return self._generate_ineq_constraint_mats_fn(state, num_steps, traj_states, traj_sensitivities)

    def _generate_ineq_constraint_mats(self, state: jnp.ndarray, num_steps: int, traj_states: jnp.ndarray,
                                       traj_sensitivities: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
        ineq_weight_barrier = jnp.empty((0, self.control_dim))
        ineq_constant_barrier = jnp.empty(0)

        check_points = jnp.hstack(
            (
                jnp.array(range(0, self.num_check_all + 1)),
                jnp.array(range(self.num_check_all + self.skip_length, num_steps, self.skip_length))
            )
        ).astype(int)

        traj_states = jnp.array(traj_states)[check_points, :]
        traj_sensitivities = jnp.array(traj_sensitivities)[check_points, :]

        constraint_list = list(self.constraints.values())
        num_constraints = len(self.constraints)

        for i in range(num_constraints):
            constraint_vmapped = vmap(self.invariance_constraints, (None, None, 0, 0), (0, 0))
            point_ineq_weight, point_ineq_constant = constraint_vmapped(constraint_list[i], state, traj_states, traj_sensitivities)
            ineq_weight_barrier = jnp.concatenate((ineq_weight_barrier, point_ineq_weight), axis=0)
            ineq_constant_barrier = jnp.concatenate((ineq_constant_barrier, point_ineq_constant), axis=0)

        ineq_weight = jnp.concatenate((self.ineq_weight_actuation, ineq_weight_barrier))
        ineq_constant = jnp.concatenate((self.ineq_constant_actuation, ineq_constant_barrier))

        return ineq_weight.transpose(), ineq_constant

    def invariance_constraints(self, constraint: ConstraintModule, initial_state: jnp.ndarray, traj_state: jnp.ndarray,
                               traj_sensitivity: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
        traj_state_array = jnp.array(traj_state)
        traj_sensitivity_array = jnp.array(traj_sensitivity)

        f_x0 = self.state_transition_system(initial_state)
        g_x0 = self.state_transition_input(initial_state)

        grad_x = constraint.grad(traj_state_array)
        ineq_weight = grad_x @ (traj_sensitivity_array @ g_x0)

        ineq_constant = grad_x @ (traj_sensitivity_array @ f_x0) \
            + constraint.alpha(constraint(traj_state_array))

        return ineq_weight, -ineq_constant

    def integrate(self, state: jnp.ndarray, step_size: float, Nsteps: int) -> tuple[list, list]:
        sensitivity = jnp.eye(state.size)

        traj_states = [state.copy()]
        traj_sensitivity = [sensitivity]

        self.backup_controller_save()

        for _ in range(1, Nsteps):
            control = self.backup_control(state, step_size)
            state = self._pred_state_fn(state, step_size, control)
            traj_jac = self.jacobian(state, step_size, self.backup_controller.controller_state)
            sensitivity = sensitivity + (traj_jac @ sensitivity) * step_size

            traj_states.append(state)
            traj_sensitivity.append(sensitivity)

        self.backup_controller_restore()

        return traj_states, traj_sensitivity


def get_lower_bound_ineq_constraint_mats(bound, vec_len: int) -> tuple[jnp.ndarray, jnp.ndarray]:
    c = jnp.eye(vec_len)

    if isinstance(bound, jnp.ndarray):
        assert bound.shape == (vec_len, ), f"the shape of bound must be ({vec_len},)"
        b = jnp.copy(bound)
    else:
        b = bound * jnp.ones(vec_len)

    return c, b


# --- a 1-D double integrator with a position limit, in the style of run_time_assurance/zoo --- scaffolding
class ConstraintMaxPosition(ConstraintModule):  # scaffolding: h(x) = 1 - x >= 0
    def _compute(self, state):  # scaffolding
        return 1.0 - state[0]  # scaffolding


class LinearStrengthener(ConstraintStrengthener):  # scaffolding
    def __call__(self, x):  # scaffolding
        return 5.0 * x  # scaffolding


class BrakeBackupController(RTABackupController):  # scaffolding: full braking, u = -2 v
    def _generate_control(self, state, step_size, controller_state=None):  # scaffolding
        return jnp.array([-2.0 * state[1]]), controller_state  # scaffolding


class Integrator1dImplicitASIF(ImplicitASIFModule):  # scaffolding
    def _setup_constraints(self):  # scaffolding
        return OrderedDict([("max_pos", ConstraintMaxPosition(alpha=LinearStrengthener()))])  # scaffolding

    def state_transition_system(self, state):  # scaffolding: dx/dt = v
        return jnp.array([state[1], 0.0])  # scaffolding

    def state_transition_input(self, state):  # scaffolding: dv/dt = u
        return jnp.array([[0.0], [1.0]])  # scaffolding

    def _pred_state(self, state, step_size, control):  # scaffolding: explicit Euler
        return state + step_size * (self.state_transition_system(state) + self.state_transition_input(state) @ control)  # scaffolding


rta = Integrator1dImplicitASIF(backup_window=0.5, control_dim=1, control_bounds_high=3.0, control_bounds_low=-3.0,  # scaffolding
                               backup_controller=BrakeBackupController())  # scaffolding
state = np.array([0.0, 0.5])  # scaffolding
step_size = 0.1  # scaffolding
for _ in range(8):  # scaffolding: closed loop, the desired control pushes towards the limit
    u = rta.filter_control(state, step_size, np.array([2.0]))  # scaffolding
    state = np.array(rta._pred_state(jnp.asarray(state), step_size, jnp.asarray(u)))  # scaffolding
print("x", round(float(state[0]), 3), "v", round(float(state[1]), 3), "intervening", rta.intervening)  # scaffolding
_report({"jit(_generate_barrier_constraint_mats)"}, 8)  # scaffolding
