# source: https://github.com/ziatdinovmax/NeuroBayes/blob/8c4537f9bcc28baead122708a9b26070e9da5d56/neurobayes/flax_nets/ensemble.py
# expect: changing-static at line 353
# runtime: COMPILES 3 CALLS 9
# why: EnsembleDeterministicNN builds one DeterministicNN per member, and DeterministicNN.train_step is jitted with static_argnums=(0,), i.e. keyed on each member object (hashed by identity); the identical training step is therefore compiled again for every member: 3 compiles for 3 members x 3 epochs (and _predict likewise once per member).
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



# ---- neurobayes/flax_nets/mlp.py (8c4537f): MLPLayerModule, FlaxMLP ----
from typing import Sequence, Tuple, Any
import jax.numpy as jnp
import flax.linen as nn



class MLPLayerModule(nn.Module):
    features: int
    activation: Any = None
    dropout: float = 0.0
    layer_name: str = 'dense'
    
    @nn.compact
    def __call__(self, x, enable_dropout: bool = True):
        x = nn.Dense(features=self.features, name=self.layer_name)(x)
        if self.activation is not None:
            x = self.activation(x)
        if self.dropout > 0:
            x = nn.Dropout(rate=self.dropout)(x, deterministic=not enable_dropout)
        return x
    

class FlaxMLP(nn.Module):
    hidden_dims: Sequence[int]
    target_dim: int
    activation: str = 'tanh'
    hidden_dropout: float = 0.0
    output_dropout: float = 0.0
    classification: bool = False
    

    @nn.compact
    def __call__(self, x: jnp.ndarray, enable_dropout: bool = True) -> jnp.ndarray:
        """Forward pass of the MLP"""
        
        # Set the activation function
        activation_fn = nn.tanh if self.activation == 'tanh' else nn.silu

        # Build the hidden layers
        for i, hidden_dim in enumerate(self.hidden_dims):
            layer = MLPLayerModule(
                features=hidden_dim,
                activation=activation_fn,
                dropout=self.hidden_dropout,
                layer_name=f"Dense{i}"
            )
            x = layer(x, enable_dropout)

        # Output layer
        output_layer = MLPLayerModule(
            features=self.target_dim,
            activation=nn.softmax if self.classification else None,
            dropout=self.output_dropout,
            layer_name=f"Dense{len(self.hidden_dims)}"
        )
        x = output_layer(x, enable_dropout)

        return x
    

# ---- neurobayes/utils/utils.py (8c4537f): split_in_batches ----
from typing import List

def split_in_batches(array: jnp.ndarray, batch_size: int = 200) -> List[jnp.ndarray]:
    """Splits array into batches"""
    num_batches = (array.shape[0] + batch_size - 1) // batch_size
    return [array[i * batch_size:(i + 1) * batch_size] for i in range(num_batches)]


# ---- neurobayes/flax_nets/train_utils.py (8c4537f) ----
from typing import Tuple, Callable


def create_swa_schedule(
        schedule_type: str,
        initial_lr: float,
        swa_lr: float,
        start_epoch: int,
        total_epochs: int,
        cycle_length: int = None,
        decay_fraction: float = 0.05
    ) -> Callable[[int], Tuple[float, bool]]:
    """
    Creates a learning rate schedule function.
    
    Args:
        schedule_type: Type of schedule ('constant', 'cyclic', 'linear')
        initial_lr: Initial learning rate
        swa_lr: SWA learning rate
        start_epoch: Epoch to start SWA
        total_epochs: total number of epochs
        cycle_length: Length of cycle for cyclic schedule (required if schedule_type='cyclic')
        decay_fraction: Fraction of total epochs used for decay period (used in cyclic and linear)
    
    Returns:
        Function that takes epoch number and returns (learning_rate, should_collect)
    """
    # Validate schedule type first
    if schedule_type not in ['constant', 'cyclic', 'linear']:
        raise ValueError(f"schedule_type must be one of: constant, cyclic, linear")
        
    # Then validate cyclic schedule requirements
    if schedule_type == 'cyclic':
        if cycle_length is None:
            raise ValueError("cycle_length must be provided for cyclic schedule")
            
    def constant_schedule(epoch: int) -> Tuple[float, bool]:
        """Keep initial lr, collect after start_epoch"""
        should_collect = epoch > start_epoch
        return initial_lr, should_collect
    
    def cyclic_schedule(epoch: int) -> Tuple[float, bool]:
        """Linear decay followed by cyclic learning rate with collections"""
        if epoch < start_epoch:
            # Before SWA: constant high learning rate
            return initial_lr, False
        
        decay_epochs = int(decay_fraction * total_epochs)
        decay_end = start_epoch + decay_epochs
        
        if epoch < decay_end:
            # Linear decay period
            progress = (epoch - start_epoch) / decay_epochs
            lr = initial_lr + (swa_lr - initial_lr) * progress
            return lr, False
            
        # After decay: start cyclic pattern with collections
        cycle_pos = (epoch - decay_end) % cycle_length
        should_collect = cycle_pos == 0
        
        # Define cycle peak to be midway between swa_lr and the lr at decay end
        cycle_peak = swa_lr + (initial_lr - swa_lr) * 0.5
        
        # Upward then downward triangle wave
        if cycle_pos < cycle_length / 2:
            # First half: go from swa_lr up to cycle_peak
            progress = cycle_pos / (cycle_length / 2)
            lr = swa_lr + (cycle_peak - swa_lr) * progress
        else:
            # Second half: go from cycle_peak back to swa_lr
            progress = (cycle_pos - cycle_length / 2) / (cycle_length / 2)
            lr = cycle_peak - (cycle_peak - swa_lr) * progress
        
        return lr, should_collect
    
    def linear_schedule(epoch: int) -> Tuple[float, bool]:
        """Linear decay followed by constant lr with collection"""
        if epoch < start_epoch:
            # Before SWA: high learning rate, no collection
            return initial_lr, False
            
        decay_epochs = int(decay_fraction * total_epochs)
        decay_end = start_epoch + decay_epochs
        
        if epoch < decay_end:
            # During decay: linear decrease, no collection
            progress = (epoch - start_epoch) / decay_epochs
            lr = initial_lr + (swa_lr - initial_lr) * progress
            return lr, False
        else:
            # After decay: constant low lr, collect weights
            return swa_lr, True
    
    schedules = {
        'constant': constant_schedule,
        'cyclic': cyclic_schedule,
        'linear': linear_schedule
    }
    
    return schedules[schedule_type]

# ---- neurobayes/flax_nets/deterministic_nn.py (8c4537f) ----
from typing import Dict, Type, Any, Union, Tuple, List, Optional, Callable
import jax
import jax.numpy as jnp
import flax
from flax.training import train_state
import optax
from functools import partial
from tqdm import tqdm

# from .train_utils import create_swa_schedule  # scaffolding: defined above
# from ..utils.utils import split_in_batches  # scaffolding: defined above


class TrainState(train_state.TrainState):
    batch_stats: Any


class DeterministicNN:
    """
    Args:
        architecture: a Flax model
        input_shape: (n_features,) or (*dims, n_channels)
        loss: type of loss, 'homoskedastic' (default) or 'heteroskedastic'
        learning_rate: Initial learning rate
        map: Uses maximum a posteriori approximation
        sigma: Standard deviation for Gaussian prior
        swa_config: Dictionary configuring the Stochastic Weight Averaging behavior:
            - 'schedule': Type of learning rate schedule and weight collection strategy.
                Options:
                - 'constant': Uses constant learning rate, collects weights after start_pct
                - 'linear': Linearly decays learning rate to swa_lr, then collects weights
                - 'cyclic': Cycles learning rate between swa_lr and a peak value, collecting at cycle starts
            - 'start_pct': When to start SWA as fraction of total epochs (default: 0.95)
            - 'swa_lr': Final/SWA learning rate (default: same as initial learning_rate)
            Additional parameters based on schedule type:
            - For 'linear' and 'cyclic':
                - 'decay_fraction': Fraction of total epochs for decay period (default: 0.05)
            - For 'cyclic' only:
                - 'cycle_length': Number of epochs per cycle (required)
    """
    def __init__(self,
                 architecture: Type[flax.linen.Module],
                 input_shape: Union[int, Tuple[int]],
                 loss: str = 'homoskedastic',
                 learning_rate: float = 0.01,
                 map: bool = True,
                 sigma: float = 1.0,
                 swa_config: Optional[Dict] = None,
                 collect_gradients: bool = False,
                 init_random_state: Optional[int] = 0
                 ) -> None:
        
        input_shape = (input_shape,) if isinstance(input_shape, int) else input_shape
        self.model = architecture

        is_transformer = 'transformer' in self.model.__class__.__name__.lower()
        input_dtype = jnp.int32 if is_transformer else jnp.float32
        
        if loss not in ['homoskedastic', 'heteroskedastic', 'classification']:
            raise ValueError("Select between 'homoskedastic', 'heteroskedastic', or 'classification' loss")
        self.loss = loss
        
        # Initialize model
        key = jax.random.PRNGKey(init_random_state)
        params = self.model.init(
            key,
            jnp.ones((1, *input_shape), dtype=input_dtype)
        )['params']
        
        # Default SWA configuration with all required parameters
        self.default_swa_config = {
            'schedule': 'constant',
            'start_pct': 0.95,
            'swa_lr': learning_rate,  # Same as initial for constant schedule
        }
        
        # Update with user config if provided
        self.swa_config = {**self.default_swa_config, **(swa_config or {})}
        
        self.current_lr = learning_rate
        self.optimizer = optax.adam(learning_rate)
        self.state = TrainState.create(
            apply_fn=self.model.apply,
            params=params,
            tx=self.optimizer,
            batch_stats=None,
        )

        self.learning_rate = learning_rate
        self.map = map
        self.sigma = sigma
        self.collect_gradients = collect_gradients

        self.params_history = []
        self.grad_history = []
        self._current_epoch_grad = None
        self._grad_count = 0

    @partial(jax.jit, static_argnums=(0,))
    def train_step(self, state, inputs, targets):
        """JIT-compiled training step"""
        dropout_key = jax.random.PRNGKey(state.step)
        loss, grads = jax.value_and_grad(self.total_loss)(
            state.params, 
            inputs, 
            targets, 
            rngs={'dropout': dropout_key}
        )
        state = state.apply_gradients(grads=grads)
        return state, loss
    
    def update_learning_rate(self, learning_rate: float):
        """Update the optimizer with a new learning rate"""
        if learning_rate != self.current_lr:
            self.current_lr = learning_rate
            self.state = self.state.replace(tx=optax.adam(learning_rate))

    def train(self, X_train: jnp.ndarray, y_train: jnp.ndarray, epochs: int, batch_size: int = None) -> None:
        X_train, y_train = self.set_data(X_train, y_train)
        
        if batch_size is None or batch_size >= len(X_train):
            batch_size = len(X_train)

        # Calculate SWA start epoch
        self.start_epoch = int(epochs * self.swa_config['start_pct'])
        
        # Create learning rate schedule
        lr_schedule = create_swa_schedule(
            schedule_type=self.swa_config['schedule'],
            initial_lr=self.learning_rate,
            swa_lr=self.swa_config['swa_lr'],
            start_epoch=self.start_epoch,
            total_epochs=epochs,
            cycle_length=self.swa_config.get('cycle_length'),
            decay_fraction=self.swa_config.get('decay_fraction', 0.05)
        )
        
        X_batches = split_in_batches(X_train, batch_size)
        y_batches = split_in_batches(y_train, batch_size)
        num_batches = len(X_batches)
        
        with tqdm(total=epochs, desc="Training Progress", leave=True) as pbar:
            for epoch in range(epochs):
                collecting_grads = self.collect_gradients and epoch >= self.start_epoch
                # Get learning rate and collection decision from schedule
                learning_rate, should_collect = lr_schedule(epoch)
                # Update learning rate if needed 
                self.update_learning_rate(learning_rate)
                
                
                epoch_loss = 0.0
                for i, (X_batch, y_batch) in enumerate(zip(X_batches, y_batches)):
                    self.state, batch_loss = self.train_step(self.state, X_batch, y_batch)
                    if collecting_grads:
                        grads = self._get_grads(X_batch, y_batch)
                        self._update_running_grad_average(grads)
                    epoch_loss += batch_loss

                if collecting_grads:
                    self.grad_history.append(self._current_epoch_grad)
                
                # Collect weights if scheduled
                if should_collect:
                    self._store_params(self.state.params)
                
                avg_epoch_loss = epoch_loss / num_batches
                pbar.set_postfix_str(
                    f"Epoch {epoch+1}/{epochs}, "
                    f"LR: {learning_rate:.6f}, "
                    f"Loss: {avg_epoch_loss:.4f} "
                )
                pbar.update(1)
                
        # Average collected weights if any were collected
        if self.params_history:
            self.state = self.state.replace(params=self.average_params())
        
        if self.grad_history:  # Check if we collected any gradients
            self.average_grads = jax.tree_map(
                lambda *epoch_grads: sum(epoch_grads) / len(epoch_grads),
                *self.grad_history
            )

    def _store_params(self, params: Dict) -> None:
        self.params_history.append(params)

    def _get_grads(self, inputs, targets):
        dropout_key = jax.random.PRNGKey(0)
        _, grads = jax.value_and_grad(self.total_loss)(
            self.state.params,
            inputs,
            targets,
            rngs={'dropout': dropout_key}
        )
        return grads
    
    def _update_running_grad_average(self, new_grads):
        """Update running average of gradients."""
        if self._current_epoch_grad is None:
            self._current_epoch_grad = new_grads
            self._grad_count = 1
        else:
            # Update running average
            self._grad_count += 1
            self._current_epoch_grad = jax.tree_util.tree_map(
                lambda avg, new: avg + (new - avg) / self._grad_count,
                self._current_epoch_grad, new_grads
            )
    
    def average_params(self) -> Dict:
        """Average model parameters, excluding normalization layers"""
        if not self.params_history:
            return self.state.params
            
        def should_average(path_tuple):
            """Check if parameter should be averaged based on its path"""
            path_str = '/'.join(str(p) for p in path_tuple)
            skip_patterns = ['LayerNorm', 'BatchNorm', 'embedding/norm']
            return not any(pattern in path_str for pattern in skip_patterns)
        
        def average_leaves(*leaves, path=()):
            """Average parameters if not in normalization layers"""
            if should_average(path):
                return jnp.mean(jnp.stack(leaves), axis=0)
            else:
                return leaves[0]  # Keep original parameters
        
        # Apply averaging with path information
        averaged_params = jax.tree_util.tree_map_with_path(
            lambda path, *values: average_leaves(*values, path=path),
            self.params_history[0],
            *self.params_history[1:]
        )
        
        return averaged_params

    def reset_swa(self):
        """Reset SWA collections"""
        self.params_history = []
    
    def gaussian_prior(self, params: Dict) -> jnp.ndarray:
        l2_norm = sum(jnp.sum(jnp.square(p)) for p in jax.tree_util.tree_leaves(params))
        return l2_norm / (2 * self.sigma**2)
    
    def total_loss(self, params: Dict, inputs: jnp.ndarray, targets: jnp.ndarray, 
                rngs: Dict) -> jnp.ndarray:
        if self.loss == 'classification':
            loss = self.cross_entropy_loss(params, inputs, targets, rngs)
        else:
            loss_fn = self.mse_loss if self.loss == 'homoskedastic' else self.heteroskedastic_loss
            loss = loss_fn(params, inputs, targets, rngs)
        if self.map:
            prior_loss = self.gaussian_prior(params) / len(inputs)
            loss += prior_loss
        return loss

    def mse_loss(self, params: Dict, inputs: jnp.ndarray,
                targets: jnp.ndarray, rngs: Dict) -> jnp.ndarray:
        predictions = self.model.apply(
            {'params': params}, 
            inputs, 
            enable_dropout=True,
            rngs=rngs
        )
        return jnp.mean((predictions - targets) ** 2)
        
    def heteroskedastic_loss(self, params: Dict, inputs: jnp.ndarray,
                            targets: jnp.ndarray, rngs: Dict) -> jnp.ndarray:
        y_pred, y_var = self.model.apply(
            {'params': params}, 
            inputs, 
            enable_dropout=True,
            rngs=rngs
        )
        return jnp.mean(0.5 * jnp.log(y_var) + 0.5 * (targets - y_pred)**2 / y_var)
        
    def cross_entropy_loss(self, params: Dict, inputs: jnp.ndarray,
                        targets: jnp.ndarray, rngs: Dict) -> jnp.ndarray:
        logits = self.model.apply(
            {'params': params}, 
            inputs, 
            enable_dropout=True,
            rngs=rngs
        )
        return -jnp.mean(jnp.sum(targets * jax.nn.log_softmax(logits), axis=-1))

    def predict(self, X: jnp.ndarray) -> jnp.ndarray:
        X = self.set_data(X)
        return self._predict(self.state, X)

    @partial(jax.jit, static_argnums=(0,))
    def _predict(self, state, X):
        predictions = state.apply_fn({'params': state.params}, X, enable_dropout=False)
        if self.loss == 'classification':
            return jax.nn.softmax(predictions)
        return predictions
    
    def set_data(self, X: jnp.ndarray, y: jnp.ndarray = None) -> jnp.ndarray:
        X = X if X.ndim > 1 else X[:, None]
        
        if y is not None:
            if self.loss == 'classification':
                y = y.reshape(-1)
                y = jax.nn.one_hot(y, num_classes=self.model.target_dim)
            else:
                y = y[:, None] if y.ndim < 2 else y  # Regression 
            return X, y
        return X

    def get_params(self) -> Dict:
        return self.state.params

# ---- neurobayes/flax_nets/ensemble.py (8c4537f) ----
from typing import Dict, Type, Any, Union, Tuple, List, Optional, Callable
import jax
import jax.numpy as jnp
import flax
import optax
import numpy as np
from tqdm import tqdm

# from .deterministic_nn import DeterministicNN, TrainState  # scaffolding: defined above
# from ..utils.utils import put_on_device, split_in_batches  # scaffolding: split_in_batches defined above; put_on_device unused here


class EnsembleDeterministicNN:
    """
    An ensemble of DeterministicNN models for improved predictions through model averaging.
    
    Args:
        architecture: a Flax model
        input_shape: (n_features,) or (*dims, n_channels)
        loss: type of loss, 'homoskedastic' (default), 'heteroskedastic', or 'classification'
        num_models: number of models in the ensemble
        learning_rate: Initial learning rate for each model
        map: Uses maximum a posteriori approximation for each model
        sigma: Standard deviation for Gaussian prior
        swa_config: Dictionary configuring the Stochastic Weight Averaging behavior (see DeterministicNN)
        collect_gradients: Whether to collect gradients during training
        init_random_seeds: List of random seeds for initializing each model. If None, seeds will be generated.
    """
    def __init__(self,
                 architecture: Type[flax.linen.Module],
                 input_shape: Union[int, Tuple[int]],
                 loss: str = 'homoskedastic',
                 num_models: int = 5,
                 learning_rate: float = 0.01,
                 map: bool = True,
                 sigma: float = 1.0,
                 swa_config: Optional[Dict] = None,
                 collect_gradients: bool = False,
                 init_random_seeds: Optional[List[int]] = None
                 ) -> None:
        
        self.architecture = architecture
        self.input_shape = input_shape
        self.loss = loss
        self.num_models = num_models
        self.learning_rate = learning_rate
        self.map = map
        self.sigma = sigma
        self.swa_config = swa_config
        self.collect_gradients = collect_gradients
        
        # Generate random seeds if not provided
        if init_random_seeds is None:
            init_random_seeds = list(range(num_models))
        elif len(init_random_seeds) < num_models:
            # If too few seeds provided, extend the list
            init_random_seeds = init_random_seeds + list(range(len(init_random_seeds), num_models))
        
        # Create ensemble members
        self.models = []
        for i in range(num_models):
            model = DeterministicNN(
                architecture=architecture,
                input_shape=input_shape,
                loss=loss,
                learning_rate=learning_rate,
                map=map,
                sigma=sigma,
                swa_config=swa_config,
                collect_gradients=collect_gradients,
                init_random_state=init_random_seeds[i]
            )
            self.models.append(model)
        
        self.trained = False
    
    def train(self, 
              X_train: jnp.ndarray, 
              y_train: jnp.ndarray, 
              epochs: int, 
              batch_size: int = None,
              bootstrap: bool = True,
              bootstrap_fraction: float = 1.0) -> None:
        """
        Train all models in the ensemble.
        
        Args:
            X_train: Input features
            y_train: Target values
            epochs: Number of epochs to train each model
            batch_size: Batch size for training (None means full batch)
            bootstrap: Whether to use bootstrap sampling for ensemble diversity
            bootstrap_fraction: Fraction of data to sample for each bootstrap if bootstrap=True
        """
        # Convert inputs to correct shapes if needed
        X_train, y_train = self._set_data(X_train, y_train)
        
        for i, model in enumerate(self.models):
            print(f"Training model {i+1}/{self.num_models}...")
            
            if bootstrap:
                # Create a bootstrap sample
                n_samples = len(X_train)
                n_bootstrap = int(n_samples * bootstrap_fraction)
                indices = np.random.choice(n_samples, n_bootstrap, replace=True)
                X_boot = X_train[indices]
                y_boot = y_train[indices]
                
                # Train on bootstrap sample
                model.train(X_boot, y_boot, epochs, batch_size)
            else:
                # Train on full dataset
                model.train(X_train, y_train, epochs, batch_size)
        
        self.trained = True
    
    def predict(self, X: jnp.ndarray, return_individual: bool = False) -> Union[Tuple[jnp.ndarray, jnp.ndarray], Tuple[jnp.ndarray, jnp.ndarray, List[jnp.ndarray]]]:
        """
        Generate ensemble predictions by averaging individual model predictions.
        
        Args:
            X: Input features
            return_individual: Whether to return individual model predictions alongside ensemble predictions
            
        Returns:
            For homoskedastic and classification:
                If return_individual=False: (ensemble_mean, ensemble_variance)
                If return_individual=True: (ensemble_mean, ensemble_variance, individual_predictions)
            For heteroskedastic:
                If return_individual=False: (ensemble_mean, ensemble_total_variance)
                If return_individual=True: (ensemble_mean, ensemble_total_variance, individual_means, individual_variances)
        """
        if not self.trained:
            raise ValueError("Models must be trained before prediction")
        
        X = self._set_data(X)
        
        # Get predictions from each model
        individual_preds = []
        
        for model in self.models:
            pred = model.predict(X)
            individual_preds.append(pred)
        
        # For heteroskedastic models, we need to handle mean and variance separately
        if self.loss == 'heteroskedastic':
            individual_means = []
            individual_variances = []
            
            for pred in individual_preds:
                individual_means.append(pred[0])
                individual_variances.append(pred[1])
            
            # Convert to arrays for easier manipulation
            individual_means = jnp.array(individual_means)
            individual_variances = jnp.array(individual_variances)
            
            # Calculate ensemble mean and variance
            ensemble_mean = jnp.mean(individual_means, axis=0)
            
            # Total variance = mean of individual variances (aleatoric) + variance of means (epistemic)
            aleatoric_variance = jnp.mean(individual_variances, axis=0)
            epistemic_variance = jnp.var(individual_means, axis=0)
            ensemble_variance = aleatoric_variance + epistemic_variance
            
            if return_individual:
                return ensemble_mean, ensemble_variance, individual_means, individual_variances
            else:
                return ensemble_mean, ensemble_variance
        
        else:  # For homoskedastic regression and classification
            # Stack predictions
            all_preds = jnp.stack(individual_preds)
            
            # Calculate ensemble mean and variance
            ensemble_mean = jnp.mean(all_preds, axis=0)
            ensemble_variance = jnp.var(all_preds, axis=0)
            
            if return_individual:
                return ensemble_mean, ensemble_variance, individual_preds
            else:
                return ensemble_mean, ensemble_variance
    
    def predict_in_batches(self, X: jnp.ndarray, batch_size: int = 200, return_individual: bool = False):
        """
        Generate ensemble predictions in batches to avoid memory issues.
        
        Args:
            X: Input features
            batch_size: Batch size for prediction
            return_individual: Whether to return individual model predictions
            
        Returns:
            Similar to predict(), but processed in batches
        """
        X = self._set_data(X)
        X_batches = split_in_batches(X, batch_size)
        
        # For storing results
        ensemble_means = []
        ensemble_variances = []
        
        if return_individual:
            all_individual_preds = [[] for _ in range(self.num_models)]
        
        for X_batch in X_batches:
            if return_individual:
                batch_mean, batch_var, batch_individual = self.predict(X_batch, return_individual=True)
                
                if self.loss == 'heteroskedastic':
                    for i in range(self.num_models):
                        all_individual_preds[i].append((batch_individual[0][i], batch_individual[1][i]))
                else:
                    for i in range(self.num_models):
                        all_individual_preds[i].append(batch_individual[i])
            else:
                batch_mean, batch_var = self.predict(X_batch, return_individual=False)
            
            ensemble_means.append(batch_mean)
            ensemble_variances.append(batch_var)
        
        # Concatenate results
        ensemble_mean = jnp.concatenate(ensemble_means)
        ensemble_variance = jnp.concatenate(ensemble_variances)
        
        if return_individual:
            if self.loss == 'heteroskedastic':
                individual_means = []
                individual_variances = []
                
                for model_preds in all_individual_preds:
                    means = jnp.concatenate([p[0] for p in model_preds])
                    vars = jnp.concatenate([p[1] for p in model_preds])
                    individual_means.append(means)
                    individual_variances.append(vars)
                
                return ensemble_mean, ensemble_variance, individual_means, individual_variances
            else:
                individual_preds = [jnp.concatenate(model_preds) for model_preds in all_individual_preds]
                return ensemble_mean, ensemble_variance, individual_preds
        else:
            return ensemble_mean, ensemble_variance
    
    def _set_data(self, X: jnp.ndarray, y: jnp.ndarray = None) -> Union[Tuple[jnp.ndarray, jnp.ndarray], jnp.ndarray]:
        """Helper method to ensure data has correct shape"""
        X = X if X.ndim > 1 else X[:, None]
        
        if y is not None:
            if self.loss == 'classification':
                y = y.reshape(-1)
                # Note: no one-hot encoding here as it's handled by individual models
            else:
                y = y[:, None] if y.ndim < 2 else y  # Regression 
            return X, y
        return X
    
    def get_params(self) -> List[Dict]:
        """Get parameters for all models in the ensemble"""
        return [model.get_params() for model in self.models]
    
    def save_ensemble(self, filename: str) -> None:
        """Save the ensemble models to a file"""
        params_list = self.get_params()
        ensemble_data = {
            'params_list': params_list,
            'architecture': self.architecture,
            'input_shape': self.input_shape,
            'loss': self.loss,
            'num_models': self.num_models,
            'learning_rate': self.learning_rate,
            'map': self.map,
            'sigma': self.sigma,
            'swa_config': self.swa_config
        }
        np.save(filename, ensemble_data, allow_pickle=True)
        print(f"Ensemble saved to {filename}")
    
    @classmethod
    def load_ensemble(cls, filename: str) -> 'EnsembleDeterministicNN':
        """
        Load an ensemble from a file.
        
        Args:
            filename: Path to the saved ensemble file
            
        Returns:
            Loaded EnsembleDeterministicNN instance
        """
        ensemble_data = np.load(filename, allow_pickle=True).item()
        
        # Create ensemble with same configuration
        ensemble = cls(
            architecture=ensemble_data['architecture'],
            input_shape=ensemble_data['input_shape'],
            loss=ensemble_data['loss'],
            num_models=ensemble_data['num_models'],
            learning_rate=ensemble_data['learning_rate'],
            map=ensemble_data['map'],
            sigma=ensemble_data['sigma'],
            swa_config=ensemble_data['swa_config']
        )
        
        # Load parameters into each model
        params_list = ensemble_data['params_list']
        for i, params in enumerate(params_list):
            ensemble.models[i].state = ensemble.models[i].state.replace(params=params)
        
        ensemble.trained = True
        return ensemble

# ---- scaffolding: a 1D regression (as in the package's examples), an ensemble of 3 members, full batch, 3 epochs ----
calls = 0  # scaffolding
try:  # scaffolding
    np.random.seed(0)  # scaffolding: the bootstrap uses np.random
    X = np.linspace(-2, 2, 48, dtype=np.float32)  # scaffolding
    y = np.sin(2 * X) + 0.1 * np.random.default_rng(0).normal(size=X.shape).astype(np.float32)  # scaffolding
    ensemble = EnsembleDeterministicNN(FlaxMLP(hidden_dims=[16, 16], target_dim=1), input_shape=1, num_models=3)  # scaffolding
    ensemble.train(X, y, epochs=3)  # scaffolding: batch_size=None -> one full batch per epoch; bootstrap resamples keep the size
    mean, var = ensemble.predict(X)  # scaffolding
    calls = 3 * 3  # scaffolding: 3 members x 3 epochs of train_step
    _report({"jit(train_step)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
