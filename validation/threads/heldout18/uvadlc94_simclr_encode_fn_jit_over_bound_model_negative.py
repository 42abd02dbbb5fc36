# source: https://github.com/phlippe/uvadlc_notebooks/issues/94
# expect: none
# runtime: COMPILES 2 CALLS 204
# why: jax.jit over a lambda calling a bound SimCLR model's encode raised JaxTransformError in the issue; on jax 0.10.2 it runs and compiles only for the two batch sizes the loader produces.
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
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn

tqdm = lambda it: it  # scaffolding: tqdm stand-in


class _ConvNet(nn.Module):  # scaffolding: stand-in for flaxmodels.ResNet18(output='activations') (flaxmodels not installed): one conv block with BatchNorm
    num_classes: int  # scaffolding

    @nn.compact  # scaffolding
    def __call__(self, x, train=True):  # scaffolding
        h = nn.relu(nn.BatchNorm(use_running_average=not train)(nn.Conv(32, (3, 3))(x)))  # scaffolding
        return {'block4_1': h, 'fc': nn.Dense(self.num_classes)(h.mean(axis=(1, 2)))}  # scaffolding


class SimCLR(nn.Module):
    hidden_dim : int
    temperature : float
    
    def setup(self):
        # Base model f(.) - ResNet 18 with last layer being size of 4*hidden_dim
        self.convnet = _ConvNet(num_classes=4*self.hidden_dim)  # scaffolding: flaxmodels.ResNet18(...)
        # Network g(.) as MLP with last fc layer of convnet
        self.head = nn.Sequential([
            nn.relu,
            nn.Dense(self.hidden_dim)
        ])
        
    def __call__(self, imgs, train=True):
        # Encode all images
        model_feats = self.convnet(imgs, train=train)
        feats = self.head(model_feats['fc'])
        return feats  # scaffolding: the InfoNCE loss and metrics are not used here
    
    def encode(self, imgs, train=False):
        # Return features before g(.)
        model_feats = self.convnet(imgs, train=train)
        return model_feats['block4_1'].mean(axis=(1,2))


def numpy_collate(batch):
    if isinstance(batch[0], np.ndarray):
        return np.stack(batch)
    elif isinstance(batch[0], (tuple,list)):
        transposed = zip(*batch)
        return [numpy_collate(samples) for samples in transposed]
    else:
        return np.array(batch)


class NumpyDataset:  # scaffolding base: data.Dataset
    # data.TensorDataset for numpy arrays
    
    def __init__(self, *arrays):
        self.arrays = arrays
        
    def __len__(self):
        return self.arrays[0].shape[0]
    
    def __getitem__(self, idx):
        return [arr[idx] for arr in self.arrays]


class data:  # scaffolding: torch.utils.data.DataLoader stand-in (sequential batches, drop_last honoured)
    class DataLoader:  # scaffolding
        def __init__(self, dataset, batch_size, shuffle, drop_last, collate_fn):  # scaffolding
            self.dataset, self.bs, self.drop_last, self.collate_fn = dataset, batch_size, drop_last, collate_fn  # scaffolding

        def __iter__(self):  # scaffolding
            n = len(self.dataset)  # scaffolding
            stop = n - n % self.bs if self.drop_last else n  # scaffolding
            for i in range(0, stop, self.bs):  # scaffolding
                yield self.collate_fn([self.dataset[j] for j in range(i, min(i + self.bs, n))])  # scaffolding


def prepare_data_features(encode_fn, dataset):
    # Encode all images
    data_loader = data.DataLoader(dataset, batch_size=64, 
                                  shuffle=False, 
                                  drop_last=False,
                                  collate_fn=numpy_collate)
    feats, labels = [], []
    for batch_imgs, batch_labels in tqdm(data_loader):
        batch_feats = encode_fn(batch_imgs)
        feats.append(jax.device_get(batch_feats))
        labels.append(batch_labels)
    
    feats = np.concatenate(feats, axis=0)
    labels = np.concatenate(labels, axis=0)
    
    # Sort images by labels for easier postprocessing later
    idxs = labels.argsort()
    labels, feats = labels[idxs], feats[idxs]
    
    return NumpyDataset(feats, labels)


class _Trainer:  # scaffolding: the trained TrainerModule (model and state with params/batch_stats)
    def __init__(self):  # scaffolding
        self.model = SimCLR(hidden_dim=16, temperature=0.07)  # scaffolding
        variables = self.model.init(jax.random.PRNGKey(0), jnp.zeros((2, 8, 8, 3)), train=True)  # scaffolding
        self.state = type('S', (), {'params': variables['params'], 'batch_stats': variables['batch_stats']})()  # scaffolding


simclr_trainer = _Trainer()  # scaffolding
_r = np.random.RandomState(0)  # scaffolding
train_img_data = NumpyDataset(_r.randn(5000, 8, 8, 3).astype(np.float32), _r.randint(0, 10, 5000))  # scaffolding: STL10 train size (5000), 8x8 images
test_img_data = NumpyDataset(_r.randn(8000, 8, 8, 3).astype(np.float32), _r.randint(0, 10, 8000))  # scaffolding: STL10 test size (8000)

simclr_model = simclr_trainer.model.bind({'params': simclr_trainer.state.params, 
                                          'batch_stats': simclr_trainer.state.batch_stats})
encode_fn = jax.jit(lambda img: simclr_model.encode(img))
train_feats_simclr = prepare_data_features(encode_fn, train_img_data)
test_feats_simclr = prepare_data_features(encode_fn, test_img_data)
_report({"jit(<lambda>)"}, 79 + 125)  # scaffolding: 79 train batches (78 of 64, one of 8) and 125 test batches
