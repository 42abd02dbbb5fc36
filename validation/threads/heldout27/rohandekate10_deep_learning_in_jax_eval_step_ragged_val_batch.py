# source: https://github.com/rohandekate10/Deep-Learning-in-JAX/blob/71fef3fb7a19f20bc06e2a162bff414d11511723/regression.py
# expect: shape-churn at line 309
# runtime: COMPILES 3 CALLS 13
# why: create_data_loaders sets drop_last only for the training loader, so the 200-point validation set ends with an 8-row batch (3 x 64 + 8) and the filter_jit eval_step compiles a second time for it; the whole 500-point test set adds a third shape.
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



import os  # scaffolding
import numpy as np  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import equinox as eqx  # scaffolding
import optax  # scaffolding


class _TorchData:  # scaffolding: torch.utils.data stand-in (torch not installed)
    class Dataset:  # scaffolding
        def __init__(self): pass  # scaffolding
    class DataLoader:  # scaffolding: torch semantics for shuffle / drop_last / collate_fn
        def __init__(self, dataset, batch_size=1, shuffle=False, drop_last=False, collate_fn=None, num_workers=0, persistent_workers=False, generator=None):  # scaffolding
            self.dataset, self.bs, self.shuffle, self.drop_last, self.collate_fn = dataset, batch_size, shuffle, drop_last, collate_fn  # scaffolding
        def __iter__(self):  # scaffolding
            n = len(self.dataset)  # scaffolding
            idx = np.random.permutation(n) if self.shuffle else np.arange(n)  # scaffolding
            stop = n - n % self.bs if self.drop_last else n  # scaffolding
            for s in range(0, stop, self.bs):  # scaffolding
                yield self.collate_fn([self.dataset[int(j)] for j in idx[s:s + self.bs]])  # scaffolding


class torch:  # scaffolding
    class utils:  # scaffolding
        data = _TorchData  # scaffolding
    class Generator:  # scaffolding
        def manual_seed(self, s): return self  # scaffolding


data = _TorchData  # scaffolding: import torch.utils.data as data


class plt:  # scaffolding: matplotlib stand-in
    figure = scatter = plot = legend = title = savefig = close = staticmethod(lambda *a, **k: None)  # scaffolding


# --- loss_fn.py (mse_loss) ---
def mse_loss(model, x, y):
    """Compute mean squared error loss over a batch."""
    def single_example_loss(model, x, y):
        return (model(x) - y) ** 2
    batch_loss = jax.vmap(single_example_loss, in_axes=(None, 0, 0))
    return batch_loss(model, x, y).mean()


# --- models.py (MLP) ---
class MLP(eqx.Module):
    """A flexible Multi-Layer Perceptron implemented using Equinox.
    
    Args:
        in_size: Input dimension
        out_size: Output dimension
        width_size: Size of hidden layers
        depth: Number of hidden layers
        activation: Activation function to use between layers
        final_activation: Activation function after the final layer
        use_bias: Whether to use bias in internal layers
        use_final_bias: Whether to use bias in final layer
        key: PRNG key for initialization
    """
    layers: list
    activation: callable
    final_activation: callable

    def __init__(self, in_size, out_size, width_size, depth, 
                activation=jax.nn.relu, final_activation=lambda x: x,
                use_bias=True, use_final_bias=True, *, key):
        keys = jax.random.split(key, depth + 1)
        
        # Build list of layers
        sizes = [in_size] + [width_size] * (depth - 1) + [out_size]
        self.layers = []
        
        # Create linear layers
        for i in range(len(sizes) - 1):
            use_layer_bias = use_bias if i < len(sizes) - 2 else use_final_bias
            self.layers.append(eqx.nn.Linear(sizes[i], sizes[i + 1], 
                                            use_bias=use_layer_bias, 
                                            key=keys[i]))
            
        self.activation = activation
        self.final_activation = final_activation

    def __call__(self, x):
        """Forward pass through the network.
        
        Args:
            x: Input tensor of shape (batch_size, in_size)
            
        Returns:
            Output tensor of shape (batch_size, out_size)
        """
        for i, layer in enumerate(self.layers):
            x = layer(x)
            # Apply activation after each layer except the last
            if i < len(self.layers) - 1:
                x = self.activation(x)
        # Apply final activation
        x = self.final_activation(x)
        return x


# --- trainer_module.py (the functions regression.py imports) ---
def check_device_jax():
    return jax.devices()


def numpy_collate(batch):
    if isinstance(batch[0], np.ndarray):
        return np.stack(batch)
    elif isinstance(batch[0], (tuple,list)):
        transposed = zip(*batch)
        return [numpy_collate(samples) for samples in transposed]
    else:
        return np.array(batch)


def create_data_loaders(*datasets, train=True, batch_size=128, num_workers=4, seed=42):
    """Creates data loaders for training and evaluation."""
    if not isinstance(train, (list, tuple)):
        train = [train for _ in datasets]
    
    loaders = []
    for dataset, is_train in zip(datasets, train):
        loader = data.DataLoader(
            dataset,
            batch_size=batch_size,
            shuffle=is_train,
            drop_last=is_train,
            collate_fn=numpy_collate,
            num_workers=num_workers,
            persistent_workers=is_train,
            generator=torch.Generator().manual_seed(seed)
        )
        loaders.append(loader)
    return loaders


@eqx.filter_jit
def train_step(model, opt_state, optimizer, x, y):
    """Single training step."""
    def loss_fn(params):
        model_with_params = eqx.apply_updates(model, params)
        return mse_loss(model_with_params, x, y)
    
    params = eqx.filter(model, eqx.is_array)
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss


@eqx.filter_jit
def eval_step(model, x, y):
    """Single evaluation step."""
    return mse_loss(model, x, y)


@eqx.filter_jit
def make_predictions(model, x):
    """Make predictions for a given model and input."""
    def single_example_prediction(model, x):
        return model(x)
    batch_prediction = jax.vmap(single_example_prediction, in_axes=(None, 0))
    return batch_prediction(model, x)


def save_model(model, path):
    """Save model using Equinox's serialization."""
    eqx.tree_serialise_leaves(path, model)


def load_model(path, model_template):
    """Load model using Equinox's serialization."""
    return eqx.tree_deserialise_leaves(path, model_template)


def save_best_model(model, val_loss, best_val_loss, save_path):
    """Save model if it has the best validation loss."""
    if val_loss < best_val_loss:
        save_model(model, save_path)
        return val_loss
    return best_val_loss


# --- regression.py ---
# import matplotlib.pyplot as plt  # scaffolding: stand-in above
import numpy as np
import jax
import jax.numpy as jnp
import equinox as eqx
# import torch  # scaffolding: stand-ins above
# import torch.utils.data as data  # scaffolding
import optax
from tqdm import tqdm
# from trainer_module import (  # scaffolding: inlined above (TensorBoardLogger left out, --use_tensorboard is off)
#     create_data_loaders, train_step, eval_step, TensorBoardLogger,
#     save_best_model, load_model, check_device_jax, make_predictions
# )
# from models import Linear_MLP, MLP  # scaffolding: MLP inlined above
import argparse
import os

def target_function(x):
    return np.sin(x * 3.0)

class RegressionDataset(data.Dataset):
    def __init__(self, num_points, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.x = rng.uniform(low=-2.0, high=2.0, size=(num_points, 1))
        self.y = target_function(self.x)

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]
    
def main(args):
    device = check_device_jax()
    print(f"Using device: {device}")
    # Create checkpoints directory if it doesn't exist
    os.makedirs(args.output_dir, exist_ok=True)
    model_path = os.path.join(args.output_dir, 'best_model.pkl')
    
    # Set up data
    train_set = RegressionDataset(num_points=args.num_points, seed=args.seed)
    val_set = RegressionDataset(num_points=200, seed=args.seed+1)
    test_set = RegressionDataset(num_points=500, seed=args.seed+2)
    
    train_loader, val_loader, test_loader = create_data_loaders(
        train_set, val_set, test_set,
        train=[True, False, False],
        batch_size=args.batch_size,
        num_workers=args.num_workers,
        seed=args.seed
    )

    # Plot data
    x = np.linspace(-2, 2, 1000)
    plt.figure(figsize=(8, 6))
    plt.scatter(train_set.x, train_set.y, color='C1', marker='x', alpha=0.5, label='Training set')
    plt.plot(x, target_function(x), linewidth=3.0, label='Ground Truth Function')
    plt.legend()
    plt.title('Regression function')
    plt.savefig(os.path.join(args.output_dir, 'regression_function.png'))
    plt.close()

    # Initialize model and optimizer
    model = MLP(
        in_size=1,
        out_size=1,
        width_size=args.width_size,
        depth=args.depth,
        activation=jax.nn.relu,
        key=jax.random.PRNGKey(args.seed)
    )

    optimizer = optax.adam(learning_rate=args.learning_rate)
    opt_state = optimizer.init(eqx.filter(model, eqx.is_array))
    
    # Initialize TensorBoard logger if enabled
    logger = TensorBoardLogger() if args.use_tensorboard else None
    
    # Training loop
    pbar = tqdm(range(args.num_epochs), desc="Training")
    best_val_loss = float('inf')
    train_losses = []
    val_losses = []
    
    for epoch in pbar:
        # Training
        epoch_train_losses = []
        for x, y in train_loader:
            model, opt_state, loss = train_step(model, opt_state, optimizer, x, y)
            epoch_train_losses.append(loss)
    
        # Validation
        epoch_val_losses = []
        for x, y in val_loader:
            val_loss = eval_step(model, x, y)
            epoch_val_losses.append(val_loss)
        
        # Calculate average losses
        avg_train_loss = np.mean(epoch_train_losses)
        avg_val_loss = np.mean(epoch_val_losses)
        
        # Save losses for plotting
        train_losses.append(avg_train_loss)
        val_losses.append(avg_val_loss)
        
        # Save best model
        best_val_loss = save_best_model(model, avg_val_loss, best_val_loss, model_path)
        
        # Log metrics to TensorBoard if enabled
        if logger is not None:
            # Log basic metrics
            logger.log_metrics({
                'train/loss': avg_train_loss,
                'val/loss': avg_val_loss,
                'learning_rate': args.learning_rate
            }, epoch)
            
            # Log parameter histograms based on frequency
            if epoch % args.param_log_freq == 0:
                params = eqx.filter(model, eqx.is_array)
                logger.log_parameters(params, epoch)
            
            # Log prediction vs ground truth plot based on frequency
            if epoch % args.plot_log_freq == 0:
                x_plot = np.linspace(-2, 2, 1000).reshape(-1, 1)
                y_true = target_function(x_plot)
                y_pred = make_predictions(model, jnp.array(x_plot))
                
                # Create figure
                fig = plt.figure(figsize=(8, 6))
                plt.scatter(train_set.x, train_set.y, color='C1', marker='x', alpha=0.5, label='Training set')
                plt.plot(x_plot, y_true, linewidth=3.0, label='Ground Truth')
                plt.plot(x_plot, y_pred, linewidth=2.0, label='Model Prediction')
                plt.legend()
                plt.title(f'Regression Results (Epoch {epoch})')
                
                # Log figure to TensorBoard
                logger.writer.add_figure('predictions/regression', fig, epoch)
                plt.close()
        
        # Update progress bar
        pbar.set_postfix(
            train_loss=f"{avg_train_loss:.4f}",
            val_loss=f"{avg_val_loss:.4f}",
            best_val_loss=f"{best_val_loss:.4f}"
        )
    
    # Close logger if enabled
    if logger is not None:
        logger.close()
    
    # Plot the loss curves
    plt.figure(figsize=(8, 6))
    plt.plot(train_losses, label='Training Loss')
    plt.plot(val_losses, label='Validation Loss')
    plt.legend()
    plt.savefig(os.path.join(args.output_dir, 'loss_curves.png'))
    plt.close()
    
    # Load best model and evaluate on test set
    best_model = load_model(model_path, model)
    test_loss = eval_step(best_model, test_loader.dataset.x, test_loader.dataset.y)
    print(f"Best model test loss: {test_loss:.4f}")

    # Model predictions
    x_test = jnp.array(test_loader.dataset.x)  # Convert to JAX array
    predictions = make_predictions(best_model, x_test)

    # Plot the predictions
    plt.figure(figsize=(8, 6))
    plt.scatter(test_set.x, test_set.y, color='C1', marker='x', alpha=0.5, label='Test set')
    plt.scatter(x_test, predictions, color='C0', marker='.', alpha=0.5, label='Predictions')
    x_plot = np.linspace(-2, 2, 1000)
    plt.plot(x_plot, target_function(x_plot), linewidth=3.0, label='Ground Truth Function')
    plt.legend()
    plt.title('Regression Results')
    plt.savefig(os.path.join(args.output_dir, 'regression_results.png'))
    plt.close()

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--output_dir", type=str, default="output/regression")
    parser.add_argument("--num_points", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--num_workers", type=int, default=4)
    parser.add_argument("--learning_rate", type=float, default=1e-3)
    parser.add_argument("--num_epochs", type=int, default=10)
    parser.add_argument("--use_tensorboard", action="store_true", help="Enable TensorBoard logging")
    parser.add_argument("--param_log_freq", type=int, default=100, help="Frequency (in epochs) for logging parameter histograms")
    parser.add_argument("--plot_log_freq", type=int, default=250, help="Frequency (in epochs) for logging prediction plots")
    parser.add_argument("--width_size", type=int, default=128, help="Width size of the MLP")
    parser.add_argument("--depth", type=int, default=2, help="Depth of the MLP")
    import tempfile  # scaffolding
    args = parser.parse_args(["--output_dir", os.path.join(tempfile.mkdtemp(), "output/regression"), "--num_epochs", "3"])  # scaffolding: temp output dir, 3 epochs instead of 10
    main(args)
_report({"jit(eval_step)"}, 13)  # scaffolding: 4 validation batches x 3 epochs + 1 test call
