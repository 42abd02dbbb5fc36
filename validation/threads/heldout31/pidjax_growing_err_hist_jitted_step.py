# source: https://github.com/andreas122001/PID-Controller-Tuning-with-JAX/blob/3be47024c34a2a30ffd2fc6e297cc805db153f7a/consys.py
# expect: shape-churn at line 215
# runtime: COMPILES 6 CALLS 6
# why: ConSys jits _step_once, which appends the new error to err_hist with jnp.append; in test() the eager loop feeds the ever-longer err_hist back into the jitted step, so every simulation step sees a new shape and compiles again (training is fine: there the calls are nested in the jitted value_and_grad).

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
import numpy as np
import jax
import jax.numpy as jnp
from tqdm import tqdm
from abc import ABC, abstractmethod
from typing import Tuple, Dict
from jax._src.basearray import Array as Array


class AbstractController(ABC):
    def __init__(self) -> None:
        super().__init__()

    def step(self, params, e, err_hist) -> jax.Array:
        """Entry function for performing one step of controller simulation."""
        # Calcualte PID-error values
        de = (e - err_hist[-2])
        ie = jnp.sum(jnp.array(err_hist), 0)
        x = jnp.array([e,ie,de])

        # Perform controller calculation
        return self._step_function(params, x)
    
    @abstractmethod
    def _step_function(params, x) -> jax.Array:
        pass

    @abstractmethod
    def init_params(self):
        pass

    def update_params(self, params, lr, gradients):
        # Use PyTrees to update general parameter structures 
        return jax.tree_util.tree_map(  # scaffolding: jax.tree_map was removed

            lambda param, grad: param - lr*grad, params, gradients
        )

class DefaultController(AbstractController):
    def __init__(self, params_range=[0, 1], initial_params=None) -> None:
        super().__init__()
        self.PARAMS_RANGE = params_range
        self.INITIAL_PARAMS = initial_params

    def _step_function(self, params, e):
        return jnp.dot(params, e) # Lin.Alg. version of default PID formula

    def init_params(self):
        return np.array(self.INITIAL_PARAMS) if self.INITIAL_PARAMS else np.random.uniform(*self.PARAMS_RANGE, 3)


class AbstractPlant(ABC):
    # class State:
    #     value = 0
    def __init__(self, state0: Array, target: float|Array) -> None:
        self.STATE0 = state0 # Initial state
        self.TARGET = target # Target state
        self.ERROR0 = self._error(state0, target) # Initial error

    def step(self, state, U, D) -> Tuple[jax.Array, jax.Array]:
        """Performs a transition on the input state and returns the new state and the error of the new state as a tuple."""
        state = self._step_function(state, U, D) # Calculate new state 
        error = self._error(state, self.TARGET) # Calculate new error
        return state, error

    @abstractmethod
    def _step_function(self, state: Array, U:float|Array, D: float|Array) -> Tuple[jax.Array, jax.Array]:
        """Plant specific step function. This method should be overridden with per-plant state transition logic."""
        pass

    def _error(self, state, target):
        return target - state[0]

    def reset(self) -> Tuple[jax.Array, jax.Array]:
        """Returns tuple of initial state and error."""
        return self.STATE0, self.ERROR0


class BathtubPlant(AbstractPlant):
    def __init__(self, target, 
                area=100, 
                cross_section=1, 
                gravity=9.81) -> None:
        super().__init__(jnp.array([target]), target) # state0 = target
        self.AREA = area
        self.CROSS_SECTION_DRAIN = cross_section
        self.GRAVITY = gravity
    
    def _step_function(self, state, U, D) -> jax.Array:
        V = jnp.sqrt(2*self.GRAVITY*state)
        Q = V*self.CROSS_SECTION_DRAIN
        dB = U + D - Q
        dH = dB / self.AREA

        new_state = jnp.maximum(0, state + dH) # we can't have negative water...

        return new_state


class ConSys:
    def __init__(self, controller: AbstractController, 
                        plant: AbstractPlant, debug=False) -> None:
        self.controller = controller
        self.plant = plant
        if not debug:
            self._step_once = jax.jit(self._step_once) # should be jitted anyway, why not

    def train(self, epochs, 
                learning_rate=0.05, 
                steps_per_epoch=10, 
                noise_range=[-.1,.1], 
                enable_jit=False,
                enable_param_logging=False):
        
        # Noise function
        gen_noise = lambda n: np.random.uniform(*noise_range, n)

        params = self.controller.init_params()
        gradfunc = jax.value_and_grad(self._simulate_one_epoch)

        if enable_jit:
            print("Compiling simulation...")
            gradfunc = jax.jit(gradfunc, static_argnames=['steps'])

        mse_log = [0]*(epochs)
        param_log = [0]*(epochs) if enable_param_logging else [0]
        for i in tqdm(range(epochs)):
            
            # Initialize state, error and noise vector
            D = gen_noise(steps_per_epoch)
            state, error = self.plant.reset()
            
            # Compute gradients and error, and update parameters
            mse, gradients = gradfunc(params, state, error, D, steps_per_epoch)
            params = self.controller.update_params(params, learning_rate, gradients)

            print(f"\nError: {mse},\nParameters: {params},\nGradients: {gradients}")

            # Log current loss (and parameters)
            mse_log[i] = mse
            if enable_param_logging:
                param_log[i] = params

        return params, mse_log, param_log


    def _simulate_one_epoch(self, params, state, error, noise_vector, steps):
        """Main differentiable simulation function. Also jittable."""

        # Initialize error and history
        err_hist = jnp.array([error, error])
        
        # Simulate PID and accumulate error
        for t in range(steps):
            state, error, err_hist = self._step_once(
                params, state, error, err_hist, noise_vector[t]
            )
        
        # Compute MSE from error history
        return jnp.mean(jnp.array([e**2 for e in err_hist]))

    def _step_once(self, params, state, error, err_hist, noise):
        """Performs one step of PID simulation and updates state and error."""

        # Update controller with current error and error history
        signal = self.controller.step(params, error, err_hist)
        # Update plant with signal from controller
        new_state, new_error = self.plant.step(state, signal, noise)

        # Add error to history and return
        err_hist = jnp.append(err_hist, new_error)
        return new_state, new_error, err_hist

    def test(self, params, steps,
                noise_range=[-.1,.1]):
        """Test a system using tuned parameters. Returns accumulated simulation state and error."""


        # Initialize variables
        state, error = self.plant.reset()
        err_hist = jnp.array([error, error])
        D = np.random.uniform(*noise_range, steps)

        state_log = [0]*steps

        for t in tqdm(range(steps)):
            state, error, err_hist = self._step_once(
                params, state, error, err_hist, D[t])
            state_log[t] = state[0]
            # sim_step(state[0], self.plant.TARGET)  (pygame visualisation cut)

        return state_log, err_hist


# scaffolding: main.py with config.py values, loops cut down
plant = BathtubPlant(target=3.14, area=100, cross_section=1, gravity=9.81)
controller = DefaultController(params_range=[0, 1], initial_params=[0.5, 0.1, 0.2])
system = ConSys(controller, plant, debug=False)
params, mse_log, param_log = system.train(epochs=2, steps_per_epoch=10, learning_rate=0.01,
                                          noise_range=[-0.01, 0.01], enable_jit=True)
test_steps = 6
state_log, err_hist = system.test(params, test_steps)
_report({"jit(_step_once)"}, test_steps)
