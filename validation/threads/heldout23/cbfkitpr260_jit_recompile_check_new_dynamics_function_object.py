# source: https://github.com/bardhh/cbfkit/pull/260
# expect: changing-static at line 470
# runtime: COMPILES 2 CALLS 3
# why: simulator_jit takes dynamics as a static argument; scenario 3 passes dynamics_v2, a new function object with the same code, so the third simulation compiles simulator_jit again (2 compiles for 3 runs).
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
# bardhh/cbfkit PR #260 (merge 03ae09c): examples/diagnostics/jit_recompile_check.py, run against simulator_jit.py and jit_monitor.py of the same commit
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple, Union  # scaffolding
import collections
import threading
from typing import DefaultDict
from functools import partial

import jax
import jax.debug as jdebug
import jax.numpy as jnp
from jax import Array, lax, random

ControllerCallable = DynamicsCallable = EstimatorCallable = IntegratorCallable = Callable  # scaffolding: cbfkit.utils.user_types aliases
NominalControllerCallable = PerturbationCallable = PlannerCallable = SensorCallable = Callable  # scaffolding
Covariance = State = Time = Array  # scaffolding


class ControllerData(NamedTuple):
    """Data structure for controller output."""

    error: bool = False
    error_data: Optional[Union[int, Array]] = None
    complete: bool = False
    sol: Optional[Array] = None
    u: Optional[Array] = None
    u_nom: Optional[Array] = None
    sub_data: Optional[Dict[str, Any]] = None


class PlannerData(NamedTuple):
    """Data structure for planner output."""

    u_traj: Optional[Array] = None
    x_traj: Optional[Array] = None
    prev_robustness: Optional[Union[float, Array]] = None
    error: bool = False
    xs: Optional[Array] = None
    sampled_x_traj: Optional[Array] = None


class JitMonitor:
    """Tracks JIT compilation events across the library."""
    _counts: DefaultDict[str, int] = collections.defaultdict(int)
    _lock = threading.Lock()

    @classmethod
    def increment(cls, key: str) -> None:
        """Increment the compilation count for a given key (function name)."""
        with cls._lock:
            cls._counts[key] += 1

    @classmethod
    def get_counts(cls) -> Dict[str, int]:
        """Return a copy of the current compilation counts."""
        with cls._lock:
            return dict(cls._counts)

    @classmethod
    def reset(cls) -> None:
        """Reset all counts to zero."""
        with cls._lock:
            cls._counts.clear()


def forward_euler(x: Array, vector_field: Callable[[Array], Array], dt: float) -> Array:
    """Performs numerical integration on current state (x) using the vector field
    over time interval of length dt according to Forward-Euler discretization.

    Arguments:
        x: current state
        vector_field: function f(x) -> x_dot
        dt: timestep length (in sec)

    Returns
    -------
        new_state
    """
    return x + vector_field(x) * dt


@partial(
    jax.jit,
    static_argnames=[
        "dynamics",
        "integrator",
        "planner",
        "nominal_controller",
        "controller",
        "sensor",
        "estimator",
        "perturbation",
        "progress_callback",
        "num_steps",
        "progress_interval",
    ],
)
def simulator_jit(
    dt: float,
    num_steps: int,
    dynamics: DynamicsCallable,
    integrator: IntegratorCallable,
    planner: Optional[PlannerCallable],
    nominal_controller: Optional[NominalControllerCallable],
    controller: Optional[ControllerCallable],
    sensor: SensorCallable,
    estimator: EstimatorCallable,
    perturbation: PerturbationCallable,
    sigma: jax.Array,
    key: jax.Array,
    initial_state: State,
    initial_controller_data: ControllerData,
    initial_planner_data: PlannerData,
    initial_covariance: Optional[Covariance] = None,
    progress_callback: Optional[Callable[[int], None]] = None,
    progress_interval: int = 1,
) -> Tuple[jax.Array, jax.Array, jax.Array, jax.Array, ControllerData, PlannerData]:
    """JIT-compiled simulation loop using jax.lax.scan.

    Requires:
    - planner_data and controller_data must be initialized with JAX-compatible arrays
      (no None) for any fields that will be used/updated.
    - Optional host-side progress reporting can be enabled via `progress_callback`.

    Returns
    -------
        xs, us, zs, cs, c_datas (stacked), p_datas (stacked)
    """
    print(f"JIT COMPILATION: simulator_jit (dt={dt}, num_steps={num_steps})")
    JitMonitor.increment("simulator_jit")

    # Define the scan step function
    def scan_step(carry, step_idx):
        # Unpack carry
        key, t, x, u, z, c, controller_data, planner_data = carry

        # Split key for this step
        key, subkey = random.split(key)

        # 1. Sensor
        y = sensor(t, x, sigma=sigma, key=key)

        # 2. Estimator - handle both 2-tuple (z, c) and 3-tuple (z, c, K) returns
        est_result = estimator(t, y, z, u, c)
        if len(est_result) == 3:
            z, c, _kalman_gain = est_result
        else:
            z, c = est_result

        # 3. Dynamics (True)
        f, g = dynamics(x)

        # 4. Planner
        if planner is not None:
            key, planner_key = random.split(key)
            # Note: We assume planner signature matches and is JIT-able
            u_planner, planner_data = planner(t, z, None, planner_key, planner_data)
        else:
            u_planner = jnp.zeros((g.shape[1],))

        # 5. Nominal Controller
        # Logic: Check if planner provided u_traj or x_traj

        # Check for u_traj (Control Trajectory)
        # We assume if 'u_traj' field exists and is not None, we might use it.
        # We rely on the structure being static (determined by initial_planner_data).

        use_planner_u = False
        if planner is not None:
            # If planner exists, u_planner is valid.
            if planner_data.u_traj is not None:
                use_planner_u = True

        if use_planner_u:
            u_nom = u_planner
        else:
            # Check x_traj
            use_x_traj = False
            if planner_data.x_traj is not None:
                use_x_traj = True

            if use_x_traj:
                traj = planner_data.x_traj
                # Calculate index
                idx = jnp.round(t / dt).astype(int)
                idx = jnp.clip(idx, 0, traj.shape[1] - 1)
                x_des = traj[:, idx]

                key, nom_key = random.split(key)
                u_nom, _ = nominal_controller(t, z, nom_key, x_des)
            else:
                if nominal_controller is not None:
                    key, nom_key = random.split(key)
                    u_nom, _ = nominal_controller(t, z, nom_key, None)
                else:
                    u_nom = jnp.zeros((g.shape[1],))

        # 6. Controller (CBF/CLF filter)
        key, ctrl_key = random.split(key)
        if controller is not None:
            u, controller_data = controller(t, z, u_nom, ctrl_key, controller_data)
        else:
            u = u_nom

        # Early stop conditions: planner/controller error or goal complete
        stop = (
            controller_data.error
            | controller_data.complete
            | (planner is not None and planner_data.error)
        )

        # 7. Perturbation and integration (skipped if stopped)
        def _integrate(_):
            p = perturbation(x, u, f, g)
            key_int, subkey = random.split(key)

            # Bolt: Evaluate perturbation once per step.
            # This avoids repeated calls inside vector_field (e.g., 4 times for RK4),
            # reducing graph size and runtime if p is complex.
            p_val = p(subkey)

            # Optimization (Bolt): If integrator is forward_euler, avoid re-evaluating dynamics.
            if integrator == forward_euler:
                # Forward Euler: x_next = x + dt * (f + g*u + p)
                # We have f, g from Step 3.
                dx = f + jnp.matmul(g, u) + p_val
                x_next = x + dx * dt
                return key_int, x_next

            def vector_field(s):
                f_s, g_s = dynamics(s)
                return f_s + jnp.matmul(g_s, u) + p_val

            # Optimization (Bolt): If integrator is runge_kutta_4, reuse f and g for k1
            # to avoid one dynamics evaluation (25% reduction in integration cost).
            if integrator == runge_kutta_4:
                k1 = f + jnp.matmul(g, u) + p_val
                k2 = vector_field(x + 0.5 * dt * k1)
                k3 = vector_field(x + 0.5 * dt * k2)
                k4 = vector_field(x + dt * k3)
                x_next = x + (dt / 6.0) * (k1 + 2 * k2 + 2 * k3 + k4)
                return key_int, x_next

            return key_int, integrator(x, vector_field, dt)

        def _hold(_):
            return key, x

        key, x_next_candidate = lax.cond(stop, _hold, _integrate, operand=None)

        # Sentinel: Check for NaNs in the next state to prevent divergent simulation
        nan_in_next = jnp.any(jnp.isnan(x_next_candidate))

        # If NaN is detected, revert to previous state to freeze simulation at last valid point
        x_next = jnp.where(nan_in_next, x, x_next_candidate)

        # If NaN is detected, force controller error to True.
        # This ensures the next iteration's 'stop' condition is triggered.
        current_error = controller_data.error
        new_error = current_error | nan_in_next
        controller_data = controller_data._replace(error=new_error)

        if progress_callback is not None and progress_interval > 0:
            should_report = jnp.logical_or(
                step_idx == num_steps - 1, step_idx % progress_interval == 0
            )

            def _report(idx):
                # Host-side hook so we can surface progress without breaking JIT.
                def _do_report(step_value):
                    progress_callback(int(step_value))

                # ordered=True so progress updates are not reordered or dropped.
                jdebug.callback(_do_report, idx, ordered=True)

            lax.cond(should_report, _report, lambda _: None, step_idx)

        # Update time
        t_next = t + dt

        # Pack carry
        # Bolt: Strip sampled_x_traj from carry to save bandwidth/memory
        planner_data_carry = planner_data._replace(sampled_x_traj=None)
        new_carry = (key, t_next, x_next, u, z, c, controller_data, planner_data_carry)

        # Output (trajectory)
        # Bolt: Strip solver_params from logged data to save memory
        log_controller_data = controller_data
        if (
            controller_data.sub_data is not None
            and "solver_params" in controller_data.sub_data
        ):
            # Create a shallow copy and remove the key to avoid affecting carry
            log_sub_data = controller_data.sub_data.copy()
            del log_sub_data["solver_params"]
            log_controller_data = controller_data._replace(sub_data=log_sub_data)

        output = (x, u, z, c, log_controller_data, planner_data)

        return new_carry, output

    # Initialize carry
    # u, z, c need initial values.
    # We use dummy values for the first step logic,
    # but x must be initial_state.

    # Initial control/estimate
    u0 = jnp.zeros((dynamics(initial_state)[1].shape[1],))
    z0 = initial_state  # Naive estimate

    if initial_covariance is not None:
        c0 = initial_covariance
    else:
        c0 = jnp.zeros((initial_state.shape[0], initial_state.shape[0]))

    carry_init = (
        key,
        0.0,  # t=0
        initial_state,
        u0,
        z0,
        c0,
        initial_controller_data,
        initial_planner_data,
    )

    # Run scan
    final_carry, trajectory = lax.scan(scan_step, carry_init, jnp.arange(num_steps))

    # Unpack trajectory
    xs, us, zs, cs, c_datas, p_datas = trajectory

    return xs, us, zs, cs, c_datas, p_datas


def _default_sensor(
    t: Time,
    x: Array,
    *,
    sigma: Optional[Array] = None,
    key: Optional[Array] = None,
    **kwargs: Any,
) -> Array:
    return x


def _default_estimator(t, y, z, u, c):
    return y, c if c is not None else jnp.zeros((len(y), len(y)))


def _default_perturbation(x, u, f, g):
    def p(key):
        return jnp.zeros_like(x)

    return p


class simulator:  # scaffolding: cbfkit.simulation.simulator.execute cut to its use_jit path (no planner/controller, verbose False)
    @staticmethod  # scaffolding
    def execute(x0, dt, num_steps, dynamics, integrator, use_jit=True, verbose=False):  # scaffolding
        key = random.PRNGKey(0)  # scaffolding: as execute does for key=None
        xs, us, zs, cs, c_datas, p_datas = simulator_jit(  # scaffolding: the call in execute
            dt=dt,
            num_steps=num_steps,
            dynamics=dynamics,
            integrator=integrator,
            planner=None,
            nominal_controller=None,
            controller=None,
            sensor=_default_sensor,
            estimator=_default_estimator,
            perturbation=_default_perturbation,
            sigma=jnp.zeros(0),
            key=key,
            initial_state=x0,
            initial_controller_data=ControllerData(),
            initial_planner_data=PlannerData(),
            initial_covariance=None,
            progress_callback=None,
            progress_interval=50,
        )
        xs.block_until_ready()  # scaffolding


def run_simulation(dynamics_func):
    """Runs a minimal simulation."""
    x0 = jnp.array([0.0, 0.0])
    dt = 0.01
    num_steps = 10

    simulator.execute(
        x0=x0,
        dt=dt,
        num_steps=num_steps,
        dynamics=dynamics_func,
        integrator=forward_euler,
        use_jit=True,
        verbose=False
    )

def main():
    print("🔍 Scout: Checking JIT compilation behavior...")

    # Reset monitor
    JitMonitor.reset()

    # ---------------------------------------------------------
    # Scenario 1: First Run
    # ---------------------------------------------------------
    def dynamics_v1(x):
        return jnp.zeros_like(x), jnp.zeros((2, 1))

    print("\n[1] Running Simulation 1 (First Call)...")
    run_simulation(dynamics_v1)

    counts = JitMonitor.get_counts()
    sim_jit_count = counts.get("simulator_jit", 0)
    print(f"    -> Compilation Counts: {counts}")

    if sim_jit_count != 1:
        print(f"❌ FAILED: Expected 1 compilation, got {sim_jit_count}")
        exit(1)

    # ---------------------------------------------------------
    # Scenario 2: Second Run (Identical)
    # ---------------------------------------------------------
    print("\n[2] Running Simulation 2 (Identical Call)...")
    run_simulation(dynamics_v1)

    counts = JitMonitor.get_counts()
    sim_jit_count_2 = counts.get("simulator_jit", 0)
    print(f"    -> Compilation Counts: {counts}")

    if sim_jit_count_2 != 1:
        print(f"❌ FAILED: Expected count to remain 1, got {sim_jit_count_2}. Redundant recompilation detected!")
        exit(1)

    # ---------------------------------------------------------
    # Scenario 3: Third Run (Changed Dynamics - should recompile)
    # ---------------------------------------------------------
    print("\n[3] Running Simulation 3 (New Dynamics Function)...")

    # Even if code is same, a new function object is a new static arg
    def dynamics_v2(x):
        return jnp.zeros_like(x), jnp.zeros((2, 1))

    run_simulation(dynamics_v2)

    counts = JitMonitor.get_counts()
    sim_jit_count_3 = counts.get("simulator_jit", 0)
    print(f"    -> Compilation Counts: {counts}")

    if sim_jit_count_3 != 2:
        print(f"❌ FAILED: Expected count to increase to 2, got {sim_jit_count_3}. Failed to detect new function.")
        exit(1)

    print("\n✅ SUCCESS: JIT compilation monitoring is working correctly.")
    print("   Run this tool to detect redundant recompilations in your loops.")

main()  # scaffolding
_report({"jit(simulator_jit)"}, 3)  # scaffolding
