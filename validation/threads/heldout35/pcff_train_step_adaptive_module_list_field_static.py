# source: https://github.com/aliazarnoush/physics-constrained-fluid-flow/blob/f7de36c267a6c70139ebecf8ef52510033fece45/training.py
# expect: unhashable-static at line 524
# runtime: ERROR ValueError
# why: train_step_adaptive marks the flax model static (static_argnums 6), but PoiseuillePINN is built with features=[20, 20, 20, 3], a list field, so hashing the module fails and the first call raises 'Non-hashable static arguments are not supported'.

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
# --- physics.py (compute_* residuals) ---

import jax
import jax.numpy as jnp
from typing import Callable, Tuple, Dict, Any, Union


def compute_momentum_residual(params, x, rho, mu, dim='x', apply_fn=None):
    """
    Compute residuals of momentum equation using automatic differentiation.
    
    Args:
        params: Model parameters
        x: Input coordinates
        rho: Fluid density
        mu: Dynamic viscosity
        dim: Dimension of momentum equation ('x' or 'y')
        apply_fn: The model's apply function
    
    Returns:
        Residual of momentum equation in the specified dimension
    """
    
    # Define helper functions for extracting velocity and pressure components
    def u_fn(x): return apply_fn(params, x)[:, 0:1]
    def v_fn(x): return apply_fn(params, x)[:, 1:2]
    def p_fn(x): return apply_fn(params, x)[:, 2:3]
    
    # Compute first-order derivatives
    u_x = jax.jacfwd(u_fn, 0)(x)[:, :, 0]
    u_y = jax.jacfwd(u_fn, 0)(x)[:, :, 1]
    v_x = jax.jacfwd(v_fn, 0)(x)[:, :, 0]
    v_y = jax.jacfwd(v_fn, 0)(x)[:, :, 1]
    p_x = jax.jacfwd(p_fn, 0)(x)[:, :, 0]
    p_y = jax.jacfwd(p_fn, 0)(x)[:, :, 1]
    
    # Compute second-order derivatives based on dimension
    if dim == 'x':
        # X-momentum equation: rho * (u * u_x + v * u_y) = -p_x + mu * (u_xx + u_yy)
        u_xx = jax.jacfwd(lambda x: jax.jacfwd(u_fn, 0)(x)[:, :, 0], 0)(x)[:, :, 0]
        u_yy = jax.jacfwd(lambda x: jax.jacfwd(u_fn, 0)(x)[:, :, 1], 0)(x)[:, :, 1]
        
        # Compute residual: difference between LHS and RHS should be zero
        momentum = rho * (u_fn(x) * u_x + v_fn(x) * u_y) + p_x - mu * (u_xx + u_yy)
    else:
        # Y-momentum equation: rho * (u * v_x + v * v_y) = -p_y + mu * (v_xx + v_yy)
        v_xx = jax.jacfwd(lambda x: jax.jacfwd(v_fn, 0)(x)[:, :, 0], 0)(x)[:, :, 0]
        v_yy = jax.jacfwd(lambda x: jax.jacfwd(v_fn, 0)(x)[:, :, 1], 0)(x)[:, :, 1]
        
        # Compute residual: difference between LHS and RHS should be zero
        momentum = rho * (u_fn(x) * v_x + v_fn(x) * v_y) + p_y - mu * (v_xx + v_yy)
    
    return momentum


def compute_continuity_residual(params, x, apply_fn=None):
    """
    Compute residuals of continuity equation (mass conservation).
    
    Args:
        params: Model parameters
        x: Input coordinates
        apply_fn: The model's apply function
    
    Returns:
        Residual of continuity equation
    """
    
    # Define helper functions for extracting velocity components
    def u_fn(x): return apply_fn(params, x)[:, 0:1]
    def v_fn(x): return apply_fn(params, x)[:, 1:2]
    
    # Compute derivatives
    u_x = jax.jacfwd(u_fn, 0)(x)[:, :, 0]
    v_y = jax.jacfwd(v_fn, 0)(x)[:, :, 1]
    
    # Continuity equation for incompressible flow: u_x + v_y = 0
    continuity = u_x + v_y
    
    return continuity


def compute_ns_residuals(params, x, rho, mu, apply_fn=None):
    """
    Compute all Navier-Stokes residuals for a batch of points.
    
    Args:
        params: Model parameters
        x: Batch of input coordinates
        rho: Fluid density
        mu: Dynamic viscosity
        apply_fn: The model's apply function
    
    Returns:
        Tuple of (x_momentum_residual, y_momentum_residual, continuity_residual)
    """
    x_momentum = compute_momentum_residual(params, x, rho, mu, dim='x', apply_fn=apply_fn)
    y_momentum = compute_momentum_residual(params, x, rho, mu, dim='y', apply_fn=apply_fn)
    continuity = compute_continuity_residual(params, x, apply_fn=apply_fn)
    
    return x_momentum, y_momentum, continuity



# --- models.py (PoiseuillePINN) ---
import flax.linen as nn
from typing import List


class PoiseuillePINN(nn.Module):
    """
    Physics-informed neural network for Poiseuille flow with embedded boundary conditions.
    
    This class implements the specific boundary conditions for a Poiseuille flow
    between two parallel plates with a pressure gradient.
    
    Attributes:
        features: List of integers defining the layer sizes for the network
        height: Float representing the channel height
        dp_dx: Float representing the pressure gradient
    """
    features: List[int]
    height: float
    dp_dx: float
    
    @nn.compact
    def __call__(self, x):
        """
        Forward pass with embedded boundary conditions for Poiseuille flow.
        
        Args:
            x: Input coordinates [x, y]
            
        Returns:
            Concatenated [u, v, p] with enforced boundary conditions
        """
        # Neural network backbone
        y = x
        for feat in self.features[:-1]:
            y = nn.Dense(feat)(y)
            y = nn.tanh(y)
        y = nn.Dense(self.features[-1])(y)
        
        # Extract raw predictions and coordinates
        u_nn, v_nn, p_nn = y[:, 0:1], y[:, 1:2], y[:, 2:3]
        x_coord, y_coord = x[:, 0:1], x[:, 1:2]
        
        # Enforce boundary conditions
        # For Poiseuille flow: u = 0 at y = 0 and y = height
        # This creates a parabolic modulation that ensures zero velocity at walls
        dist_to_wall = y_coord * (self.height - y_coord) / (self.height**2 / 4)
        
        # Boundary condition enforcement through network architecture (hard constraints)
        u = dist_to_wall * u_nn  # No-slip walls
        v = jnp.zeros_like(v_nn)  # Zero vertical velocity
        p = self.dp_dx * x_coord + p_nn  # Linear pressure gradient + learned perturbation
        
        return jnp.concatenate([u, v, p], axis=1)



# --- training.py ---
import jax
import jax.numpy as jnp
import optax
import numpy as np
from functools import partial
from typing import Tuple, List, Dict, Any, Callable, Optional, Union


@jax.jit
def train_step(params, opt_state, batch, rho, mu, model, optimizer, lambda_cont=1.0):
    """
    Single training step for physics-constrained neural network.
    
    JAX's functional approach means computation of gradients with respect to a pure function
    and update of parameters using the optimizer's update function.
    
    Args:
        params: Current model parameters
        opt_state: Current optimizer state
        batch: Batch of collocation points
        rho: Fluid density
        mu: Dynamic viscosity
        model: PINN model instance
        optimizer: Optax optimizer
        lambda_cont: Weight for continuity equation residual
    
    Returns:
        Updated parameters, optimizer state, loss value, and auxiliary info
    """
    # Get a reference to the model's apply function (this is hashable)
    apply_fn = model.apply
    
    def loss_fn(params):
        """Loss function combining momentum and continuity residuals"""
        # Compute residuals for current batch
        x_momentum, y_momentum, continuity = compute_ns_residuals(
            params, batch, rho, mu, apply_fn=apply_fn
        )
        
        # Compute mean squared residuals
        x_momentum_loss = jnp.mean(x_momentum**2)
        y_momentum_loss = jnp.mean(y_momentum**2)
        continuity_loss = jnp.mean(continuity**2)
        
        # Total loss with weighting
        total_loss = x_momentum_loss + y_momentum_loss + lambda_cont * continuity_loss
        
        return total_loss, (x_momentum_loss, y_momentum_loss, continuity_loss)
    
    # Compute loss and gradients using JAX's value_and_grad
    (loss, aux), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    
    # Update parameters using optimizer
    updates, new_opt_state = optimizer.update(grads, opt_state, params)
    new_params = optax.apply_updates(params, updates)
    
    return new_params, new_opt_state, loss, aux


def adaptive_loss_weights(momentum_grad_norm, continuity_grad_norm, alpha=0.1):
    """
    Compute adaptive weights for balancing different loss terms.
    
    This function implements the adaptive weighting scheme to balance
    competing gradient contributions from different physics terms.
    
    Args:
        momentum_grad_norm: Norm of momentum equation gradients
        continuity_grad_norm: Norm of continuity equation gradients
        alpha: Adaptation rate parameter
    
    Returns:
        Tuple of (momentum_weight, continuity_weight)
    """
    ratio_m = momentum_grad_norm / continuity_grad_norm
    ratio_c = continuity_grad_norm / momentum_grad_norm
    
    # Apply exponential scaling
    lambda_m = jnp.exp(-alpha * ratio_m)
    lambda_c = jnp.exp(-alpha * ratio_c)
    
    return lambda_m, lambda_c


@partial(jax.jit, static_argnums=(4, 5, 6, 7, 8))
def train_step_adaptive(params, opt_state, batch, epoch, rho, mu, model, optimizer, n_adapt):
    """
    Training step with adaptive loss weighting.
    
    This function implements the adaptive training procedure that balances
    different physics components through dynamic weight adjustment.
    
    Args:
        params: Current model parameters
        opt_state: Current optimizer state
        batch: Batch of collocation points
        epoch: Current training epoch
        rho: Fluid density
        mu: Dynamic viscosity
        model: PINN model instance
        optimizer: Optax optimizer
        n_adapt: Interval for weight adaptation
    
    Returns:
        Updated parameters, optimizer state, loss value, weights, and auxiliary info
    """
    # Initial weights
    momentum_weight = 1.0
    continuity_weight = 1.0
    
    # Separate loss functions for computing gradients
    def momentum_loss_fn(params):
        x_momentum, y_momentum, _ = compute_ns_residuals(model, params, batch, rho, mu)
        return jnp.mean(x_momentum**2) + jnp.mean(y_momentum**2)
    
    def continuity_loss_fn(params):
        _, _, continuity = compute_ns_residuals(model, params, batch, rho, mu)
        return jnp.mean(continuity**2)
    
    # Combined loss for training
    def total_loss_fn(params):
        x_momentum, y_momentum, continuity = compute_ns_residuals(model, params, batch, rho, mu)
        
        # Compute individual losses
        x_momentum_loss = jnp.mean(x_momentum**2)
        y_momentum_loss = jnp.mean(y_momentum**2)
        continuity_loss = jnp.mean(continuity**2)
        
        # Total loss with weighting
        momentum_loss = x_momentum_loss + y_momentum_loss
        total_loss = momentum_weight * momentum_loss + continuity_weight * continuity_loss
        
        return total_loss, (momentum_loss, continuity_loss)
    
    # Adapt weights every n_adapt epochs
    do_adapt = (epoch % n_adapt == 0)
    
    def adapt_weights():
        # Compute gradient norms
        momentum_grad = jax.grad(momentum_loss_fn)(params)
        continuity_grad = jax.grad(continuity_loss_fn)(params)
        
        # Compute L2 norms
        momentum_grad_norm = optax.global_norm(momentum_grad)
        continuity_grad_norm = optax.global_norm(continuity_grad)
        
        # Update weights
        new_momentum_weight, new_continuity_weight = adaptive_loss_weights(
            momentum_grad_norm, continuity_grad_norm
        )
        
        return new_momentum_weight, new_continuity_weight
    
    # Only adapt weights periodically
    momentum_weight, continuity_weight = jax.lax.cond(
        do_adapt,
        lambda _: adapt_weights(),
        lambda _: (momentum_weight, continuity_weight),
        operand=None
    )
    
    # Compute loss and gradients
    (loss, aux), grads = jax.value_and_grad(total_loss_fn, has_aux=True)(params)
    
    # Update parameters using optimizer
    updates, new_opt_state = optimizer.update(grads, opt_state, params)
    new_params = optax.apply_updates(params, updates)
    
    return new_params, new_opt_state, loss, (momentum_weight, continuity_weight), aux


def generate_collocation_points(domain_bounds, n_points, adaptive=False, boundary_ratio=0.2):
    """
    Generate collocation points for training.
    
    Args:
        domain_bounds: List of (min, max) tuples for each dimension
        n_points: Total number of points to generate
        adaptive: Whether to use adaptive sampling (higher density near boundaries)
        boundary_ratio: Ratio of points to allocate near boundaries if adaptive is True
    
    Returns:
        Array of collocation points
    """
    if not adaptive:
        # Uniform sampling across domain
        points = []
        for dim_bounds in domain_bounds:
            dim_min, dim_max = dim_bounds
            points.append(np.random.uniform(dim_min, dim_max, n_points))
        
        return np.stack(points, axis=1)
    else:
        # Adaptive sampling with higher density near boundaries
        n_boundary = int(n_points * boundary_ratio)
        n_interior = n_points - n_boundary
        
        # Interior points (uniform sampling)
        interior_points = []
        for dim_bounds in domain_bounds:
            dim_min, dim_max = dim_bounds
            interior_points.append(np.random.uniform(dim_min, dim_max, n_interior))
        
        interior_points = np.stack(interior_points, axis=1)
        
        # Boundary points (closer to domain boundaries)
        boundary_points = []
        for i, dim_bounds in enumerate(domain_bounds):
            dim_min, dim_max = dim_bounds
            
            # Points for this dimension's boundaries
            dim_boundary_pts = np.random.uniform(dim_min, dim_max, n_boundary)
            
            # Other dimensions (uniform sampling)
            other_dims = []
            for j, other_bounds in enumerate(domain_bounds):
                if i == j:
                    # Randomly choose near min or max boundary
                    near_min = np.random.rand(n_boundary) < 0.5
                    
                    # Add small offset from boundaries
                    epsilon = 0.02 * (dim_max - dim_min)
                    boundary_vals = np.where(
                        near_min,
                        dim_min + epsilon * np.random.rand(n_boundary),
                        dim_max - epsilon * np.random.rand(n_boundary)
                    )
                    other_dims.append(boundary_vals)
                else:
                    other_min, other_max = other_bounds
                    other_dims.append(np.random.uniform(other_min, other_max, n_boundary))
            
            boundary_points.append(np.stack(other_dims, axis=1))
        
        # Combine all boundary points
        all_boundary_points = np.vstack(boundary_points)
        
        # Randomly select n_boundary points from all boundary points
        idx = np.random.choice(len(all_boundary_points), n_boundary, replace=False)
        selected_boundary_points = all_boundary_points[idx]
        
        # Combine interior and boundary points
        all_points = np.vstack([interior_points, selected_boundary_points])
        
        # Shuffle points
        np.random.shuffle(all_points)
        
        return all_points



def initialize_training(model, seed=0, learning_rate=1e-3):
    """
    Initialize model parameters and optimizer for training.
    
    Args:
        model: PINN model instance
        seed: Random seed for initialization
        learning_rate: Initial learning rate for optimizer
    
    Returns:
        Tuple of (initial_params, optimizer, opt_state)
    """
    # Initialize parameters
    key = jax.random.PRNGKey(seed)
    dummy_input = jnp.ones((1, 2))  # Assuming 2D input (x, y)
    params = model.init(key, dummy_input)
    
    # Create optimizer
    optimizer = optax.adam(learning_rate)
    opt_state = optimizer.init(params)
    
    return params, optimizer, opt_state


def train_pinn(
    model,
    domain_bounds,
    rho,
    mu,
    n_iterations=5000,
    batch_size=1000,
    learning_rate=1e-3,
    adaptive_sampling=True,
    adaptive_weighting=True,
    n_adapt=100,
    seed=0,
    callback=None
):
    """
    Complete training procedure for physics-constrained neural network.
    
    Args:
        model: PINN model instance
        domain_bounds: List of (min, max) tuples for each dimension
        rho: Fluid density
        mu: Dynamic viscosity
        n_iterations: Total number of training iterations
        batch_size: Number of collocation points per batch
        learning_rate: Initial learning rate for optimizer
        adaptive_sampling: Whether to use adaptive collocation point sampling
        adaptive_weighting: Whether to use adaptive loss weighting
        n_adapt: Interval for weight adaptation if adaptive_weighting is True
        seed: Random seed for initialization
        callback: Optional callback function for monitoring training progress
        
    Returns:
        Trained parameters and training history dictionary
    """
    # Initialize model and optimizer
    params, optimizer, opt_state = initialize_training(model, seed, learning_rate)
    
    # Initialize weights for adaptive training
    momentum_weight = 1.0
    continuity_weight = 1.0
    
    # Training history
    history = {
        'loss': [],
        'momentum_loss': [],
        'continuity_loss': [],
        'momentum_weight': [],
        'continuity_weight': []
    }
    
    # Training loop
    for i in range(n_iterations):
        # Generate collocation points for this iteration
        batch = generate_collocation_points(domain_bounds, batch_size, adaptive=adaptive_sampling)
        batch = jnp.array(batch)
        
        # Training step
        if adaptive_weighting:
            params, opt_state, loss, weights, aux = train_step_adaptive(
                params, opt_state, batch, i, rho, mu, model, optimizer, n_adapt
            )
            momentum_weight, continuity_weight = weights
            momentum_loss, continuity_loss = aux
        else:
            params, opt_state, loss, aux = train_step(
                params, opt_state, batch, rho, mu, model, optimizer, lambda_cont=continuity_weight
            )
            momentum_loss = (aux[0] + aux[1]) / 2.0  # Average of x and y momentum losses
            continuity_loss = aux[2]
        
        # Record history
        history['loss'].append(float(loss))
        history['momentum_loss'].append(float(momentum_loss))
        history['continuity_loss'].append(float(continuity_loss))
        history['momentum_weight'].append(float(momentum_weight))
        history['continuity_weight'].append(float(continuity_weight))
        
        # Optional callback for monitoring
        if callback is not None and i % 100 == 0:
            callback(i, params, history)
    
    return params, history


# --- caller modelled on examples/poiseuille_flow.py (scaffolding except the model line) ---
height, dp_dx, rho, mu = 1.0, -1.0, 1.0, 0.01  # scaffolding: run_poiseuille_example defaults
features = [20, 20, 20, 3]  # scaffolding: run_poiseuille_example default
model = PoiseuillePINN(features=features, height=height, dp_dx=dp_dx)
domain_bounds = [(0.0, 1.0), (0.0, height)]  # scaffolding
n_iter = 4  # scaffolding
try:  # scaffolding
    params, history = train_pinn(model, domain_bounds, rho, mu, n_iterations=n_iter, batch_size=16, adaptive_weighting=True)  # scaffolding
    _report({"jit(train_step)", "jit(train_step_adaptive)"}, n_iter)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
