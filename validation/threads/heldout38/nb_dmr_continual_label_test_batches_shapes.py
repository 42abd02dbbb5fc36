# source: https://github.com/google-deepmind/deepmind-research/blob/f5de0ede8430809180254ee957abf36ed62579ef/continual_learning/encoders_and_ensembles.ipynb
# expect: shape-churn at line 367
# runtime: COMPILES 13 CALLS 21
# why: get_test_batches draws one 10000//10 = 1000-image batch per MNIST label, but most digit classes have fewer than 1000 test images, so the first batch of each filtered dataset has a class-dependent size (892 ... 1000); test_model feeds them to the jitted apply_encoder and accuracy, which compile once per distinct batch size.

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
# Imports
import numpy as np  # scaffolding: tensorflow replaced by a NumPy stand-in pipeline
import jax
import jax.numpy as jnp
from jax import jit, grad, random
import optax
import haiku as hk

_CALLS = [0]  # scaffolding
# Experiment parameters


# MNIST config (high data) - for comparison with Lee, et al. (2020)

config = {
    'enc_size': 32,  # scaffolding: 512  # size of latent encoding
    'mem_size': 64,  # scaffolding: 1024  # number of memory locations (classifiers)
    'k': 4,  # scaffolding: 32  # k nearest neighbour lookup parameter
    'vub': 250,  # upper bound for activation function - was 100
    'res': 28,  # resolution - 28 for MNIST & Omniglot
    'col_dims': 1,  # 3 for RGB, 1 for greyscale
    'num_classes': 10,  # number of classes
    'pretrain_n_batches': 10000,  # number of batches in pre-training
    'pretrain_dataset': 'omniglot',
    'main_dataset': 'mnist',
    'batch_size': 60,  # batch size for training main model
    'learning_rate': 1e-4,  # learning rate for training main model
    'weight_decay': 1e-4,  # optimiser weight decay
    'init_scale': 0.1,  # baseline classifier initialiser variance scaling
    'log_every': 10,  # interval for logging accuracies
    'report_every': 500,  # interval for reporting accuracies
    'schedule_type': '5way_split',  # training schedule (defining splits, etc)
    'n_runs': 20,  # number of runs on the schedule
}
# Optimisers


class NaiveOptimiser():
  """Optimiser that discards magnitude of gradients and uses only their sign."""

  def __init__(self, learning_rate, weight_decay):
    self.learning_rate = learning_rate
    self.weight_decay = weight_decay
    self.state = None

  def init(self, params):
    return None

  def update(self, grads, _, params=None):
    step_size = self.learning_rate
    weight_decay = self.weight_decay
    updates = jax.tree_util.tree_map(lambda g: -jnp.sign(g), grads)  # scaffolding: jax.tree_map
    updates = jax.tree_util.tree_map(  # scaffolding: jax.tree_multimap
        lambda g, p: g + weight_decay * p, updates, params)
    updates = jax.tree_util.tree_map(lambda g: step_size * g, updates)  # scaffolding: jax.tree_map
    return (updates, self.state)


def make_encoder_optimiser():
  opt = optax.adam(learning_rate=0.001)  # learning rate was 0.001
  return opt


def make_ensemble_optimiser():
  opt = NaiveOptimiser(learning_rate=config['learning_rate'],
                       weight_decay=config['weight_decay'])
  return opt
# Datasets: MNIST and Omniglot
_MNIST_TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]  # scaffolding: per-class sizes of the MNIST test split


def get_dataset(dataset_name, train_or_test, batch_size, filter_labels=None):
  # scaffolding: NumPy stand-in for tfds.load(...).filter(...).shuffle(10000).batch(batch_size).repeat()
  rs = np.random.RandomState(0)
  counts = _MNIST_TEST_COUNTS if train_or_test == 'test' else [6000] * 10
  labels = np.concatenate([np.full(c, i) for i, c in enumerate(counts)])
  if filter_labels is not None:
    labels = labels[np.isin(labels, filter_labels)]
  images = rs.randint(0, 256, size=(len(labels), 28, 28, 1)).astype(np.uint8)
  def gen():
    while True:  # .repeat() after .batch(): the last batch of every epoch is short
      perm = rs.permutation(len(labels))
      for s in range(0, len(labels), batch_size):
        idx = perm[s:s + batch_size]
        yield {'image': images[idx], 'label': labels[idx]}
  dataset = iter(gen())
  return dataset


def get_batch(dataset, dataset_name):
  batch = next(dataset)
  batch_size = batch['image'].shape[0]
  images = batch['image']
  images = np.reshape(images, [batch_size, 28, 28, 1]) / 255  # scaffolding: tf.reshape (omniglot resize cut)
  labels = batch['label']
  one_hots = np.eye(config['num_classes'], dtype=np.float32)[batch['label']]  # scaffolding: tf.one_hot
  return (images.astype(np.float32), one_hots, labels)

# Autoencoder (for pretraining)


class Autoencoder(hk.Module):
  """Autoencoder module."""


  def encode(self, image):
    cnn = hk.Sequential([
        hk.Conv2D(output_channels=16, kernel_shape=4, name='enc1'), jax.nn.relu,
        hk.Conv2D(output_channels=16, kernel_shape=4, name='enc2'), jax.nn.relu,
        hk.Flatten(),
    ])
    mlp1 = hk.Sequential([
        hk.Linear(128, name='enc3'), jax.nn.relu,
        hk.Linear(config['enc_size'], name='enc4'),
    ])
    mlp2 = hk.Sequential([
        hk.Linear(128, name='enc5'), jax.nn.relu,
        hk.Linear(config['enc_size'], name='enc6'),
    ])
    feats = cnn(image.reshape([-1, config['res'], config['res'],
                               config['col_dims']]))
    enc_mean = jnp.tanh(mlp1(feats))
    enc_sd = jax.nn.relu(mlp2(feats))
    return (enc_mean, enc_sd)


  def decode(self, latent):
    dcnn = hk.Sequential(
        [hk.Linear(128, name='dec1'), jax.nn.relu,
        hk.Linear(config['res']*config['res']*16, name='dec2'), jax.nn.relu,
        hk.Reshape((config['res'], config['res'], 16)),
        hk.Conv2DTranspose(output_channels=16, kernel_shape=4, name='dec3'),
        jax.nn.relu,
        hk.Conv2DTranspose(output_channels=config['col_dims'],
                           kernel_shape=4, name='dec4'),
        jax.nn.sigmoid])
    image = dcnn(latent).reshape([-1, config['res'], config['res'],
                                  config['col_dims']])
    return image


  def forward(self, rng, image):
    (enc_mean, enc_sd) = self.encode(image)
    # Sample
    (rng2, rng) = random.split(rng)
    eps = random.normal(rng2, jnp.shape(enc_mean))
    enc = enc_mean + enc_sd * eps
    image_dec = self.decode(enc)
    out = {
      'enc_mean': enc_mean,
      'enc_sd': enc_sd,
      'image_dec': image_dec,
    }
    return out


def encoder(rng, image):
  autoencoder = Autoencoder()
  out = autoencoder.forward(rng, image)
  return out
# Ensemble memory (main model)


def activation(values):
  """Activation function for ensemble (scaled tanh)."""
  out = jnp.tanh(values / config['vub']) * config['vub']
  return out


def l2_normalize(x, axis=None, epsilon=1e-12):
  """l2 normalize a tensor on an axis with numerical stability."""
  square_sum = jnp.sum(jnp.square(x), axis=axis, keepdims=True)
  x_inv_norm = jax.lax.rsqrt(jnp.maximum(square_sum, epsilon))
  return x * x_inv_norm


class Memory(hk.Module):
  """Memory module."""

  def __init__(self, name=None):
    super().__init__(name)
    self.keys = hk.get_parameter('mem_keys', [config['mem_size'],
                                              config['enc_size']],
                                 init=hk.initializers.Constant(0))
    self.weights = hk.get_parameter('mem_weights', [config['mem_size'],
                                                    config['enc_size'],
                                                    config['num_classes']],
                                    init=hk.initializers.VarianceScaling())
    self.biases = hk.get_parameter('mem_biases', [config['mem_size'], 1,
                                                  config['num_classes']],
                                   init=hk.initializers.Constant(0))


  def lookup(self, enc):
    """k-nearest neighbour lookup in ensemble memory."""
    enc = l2_normalize(enc, axis=1)
    keys = l2_normalize(self.keys, axis=1)
    sims = jnp.matmul(enc, jnp.transpose(keys))   # cosine similarities
    (k_sims, idx) = jax.lax.top_k(sims, config['k'])  # k nearest neighbours
    # Keys
    k_keys = jnp.take(self.keys, idx, axis=0)
    mean_key = jnp.mean(k_keys, axis=1)
    # Values
    k_encs = jnp.expand_dims(enc, axis=(1, 2))
    k_encs = jnp.tile(k_encs, (1, config['k'], 1, 1))
    k_weights = jnp.take(self.weights, idx, axis=0)
    k_biases = jnp.take(self.biases, idx, axis=0)
    k_values = jnp.matmul(k_encs, k_weights) + k_biases
    k_values = jnp.squeeze(k_values)
    k_values = activation(k_values)
    # Mean of values weighted by key similarity
    k_sims2 = jax.lax.stop_gradient(jnp.expand_dims(k_sims, axis=2))
    mean_value = jnp.sum(k_values * k_sims2, axis=1) / jnp.sum(k_sims2, axis=1)
    return (mean_key, mean_value, k_sims, k_keys, k_values, idx)


class EnsembleModel(hk.Module):
  """Ensemble memory model."""


  def __init__(self, name=None):
    super().__init__(name)
    self.memory = Memory()


  def enc_to_class_vanilla(self, enc_image):
    mlp = hk.Sequential([
        hk.Linear(config['num_classes'],
                  w_init=hk.initializers.VarianceScaling(
                      scale=config['init_scale']),
                  name='classifier1'),
        jax.nn.log_softmax,
    ])
    pred = mlp(enc_image)  # predicted class
    return pred


  def enc_to_class_tanh(self, enc_image):
    mlp = hk.Sequential([
        hk.Linear(config['num_classes'],
                  w_init=hk.initializers.VarianceScaling(
                      scale=config['init_scale']),
                  name='classifier2'),
    ])
    pred = activation(mlp(enc_image))  # predicted class
    return pred


  def forward(self, enc_image):
    """Memory lookup and classifier."""
    (mean_key, mean_value,
     k_sims, k_keys, k_values, idx) = self.memory.lookup(enc_image)
    classifier_out_vanilla = self.enc_to_class_vanilla(enc_image)
    classifier_out_tanh = self.enc_to_class_tanh(enc_image)
    out = {
      'classifier_out_vanilla': classifier_out_vanilla,
      'classifier_out_tanh': classifier_out_tanh,
      'k_sims': k_sims,
      'k_keys': k_keys,
      'k_values': k_values,
      'mean_key': mean_key,
      'mean_value': mean_value,
      'idx': idx,
    }
    return out


def model(enc_image):
  ensemble = EnsembleModel()
  out = ensemble.forward(enc_image)
  return out
# Loss and accuracy for ensemble memory (main model)


def model_loss(params, rng, enc_images, one_hots, labels):
  model_net = hk.transform(model)
  model_out = model_net.apply(params, rng, enc_images)
  preds_vanilla = model_out['classifier_out_vanilla']
  preds_tanh = model_out['classifier_out_tanh']
  mean_values = model_out['mean_value']
  # Classifier losses
  classifier_loss_vanilla = -jnp.mean(jnp.sum(preds_vanilla * one_hots, axis=1))
  classifier_loss_tanh = -jnp.mean(jnp.sum(preds_tanh * one_hots, axis=1))
  # Memory loss
  memory_loss = -jnp.mean(jnp.sum(mean_values * one_hots, axis=1))
  # Total loss
  loss = classifier_loss_vanilla + classifier_loss_tanh + memory_loss
  return loss


@jit
def accuracy(params, rng, enc_images, labels):
  """Accuracies for each type of model."""
  model_net = hk.transform(model)
  model_out = model_net.apply(params, rng, enc_images)
  classifier_classes_van = jnp.argmax(model_out['classifier_out_vanilla'], axis=1)
  classifier_acc_van = jnp.mean(classifier_classes_van == labels)
  classifier_classes_tanh = jnp.argmax(model_out['classifier_out_tanh'], axis=1)
  classifier_acc_tanh = jnp.mean(classifier_classes_tanh == labels)
  ensemble_classes = jnp.argmax(model_out['mean_value'], axis=1)
  ensemble_acc = jnp.mean(ensemble_classes == labels)
  return (classifier_acc_van, classifier_acc_tanh, ensemble_acc)
def get_encoder():
  encoder_net = hk.transform(encoder)
  return encoder_net


def initialise_encoder(rng):
  """Initialise internal encoder for pre-training."""
  encoder_net = get_encoder()
  # Get dummy batch
  batch_size =  24
  train_set = get_dataset(config['pretrain_dataset'], 'train', batch_size)
  batch = get_batch(train_set, config['pretrain_dataset'])
  (images, _, _) = batch
  (rng2, rng) = random.split(rng)
  (rng3, rng) = random.split(rng)
  enc_params = encoder_net.init(rng2, rng3, images)
  return enc_params


@jit
def apply_encoder(enc_params, rng, images):
  encoder_net = get_encoder()
  (rng2, rng) = random.split(rng)
  encoder_out = encoder_net.apply(enc_params, rng, rng2, images)
  enc = encoder_out['enc_mean']
  return enc
# Model testing with recording of accuracies


def test_model(model_params, enc_params, test_labels, test_batches,
               accuracies, batch_number):
  rng = random.PRNGKey(42)
  for i in range(len(test_labels)):
    (images, _, labels) = test_batches[i]
    # Encode images
    (rng2, rng) = random.split(rng)
    enc_images = apply_encoder(enc_params, rng2, images)
    # Get accuracies
    (rng2, rng) = random.split(rng)
    (classifier_acc_vanilla,
     classifier_acc_tanh, ensemble_acc) = accuracy(model_params, rng2,
                                                   enc_images, labels)
    _CALLS[0] += 2  # scaffolding
    accuracies['accuracies_vanilla'][i].append(classifier_acc_vanilla)
    accuracies['accuracies_tanh'][i].append(classifier_acc_tanh)
    accuracies['accuracies_ensemble'][i].append(ensemble_acc)
  return accuracies
# Model training with pre-trained encoder


def initialise_model(rng, enc_params):
  model_net = hk.transform(model)
  # Get dummy batch
  train_batch_size = 24
  train_set = get_dataset(config['main_dataset'], 'train', train_batch_size)
  batch = get_batch(train_set, config['main_dataset'])
  (images, _, _) = batch
  # Encode images
  (rng2, rng) = random.split(rng)
  enc_images = apply_encoder(enc_params, rng2, images)
  # Initialise the model
  (rng2, rng) = random.split(rng)
  model_params = model_net.init(rng2, enc_images)
  # Initialise memory keys according to encoding stats
  (rng2, rng) = random.split(rng)
  keys = jax.random.normal(rng2, [config['mem_size'], config['enc_size']])
  new_key_params = {'ensemble_model/~/memory': {'mem_keys': keys}}
  (old_key_params, rest_params) = hk.data_structures.partition(
      lambda m, n, p: (m == 'ensemble_model/~/memory' and
                       n == 'mem_keys'), model_params)
  model_params = hk.data_structures.merge(new_key_params, rest_params)
  return model_params



# Training scripts


def get_test_batches(test_labels):
  """Split test batch up into label-wise batches according to 'test_labels'."""
  batch_size = 10000 // len(test_labels)
  test_batches = []
  for labels in test_labels:
    dataset = get_dataset(config['main_dataset'], 'test', batch_size,
                          filter_labels=labels)
    test_batch = get_batch(dataset, config['main_dataset'])
    test_batches.append(test_batch)
  return test_batches



# scaffolding: the part of main()/train_with_schedule that builds the test batches and tests the model
rng = random.PRNGKey(78)
(rng2, rng) = random.split(rng)
enc_params = initialise_encoder(rng2)  # scaffolding: pretrain_encoder cut
test_labels = [[x] for x in range(10)]  # as in get_schedule
test_batches = get_test_batches(test_labels)
print([b[0].shape[0] for b in test_batches])  # scaffolding
(rng2, rng) = random.split(rng)
model_params = initialise_model(rng2, enc_params)
_CALLS[0] += 1  # scaffolding: the apply_encoder call inside initialise_model
accuracies = {
    'accuracies_vanilla': [[] for _ in range(len(test_labels))],
    'accuracies_tanh': [[] for _ in range(len(test_labels))],
    'accuracies_ensemble': [[] for _ in range(len(test_labels))]}
accuracies = test_model(model_params, enc_params, test_labels, test_batches,
                        accuracies, 0)
_report({"jit(apply_encoder)", "jit(accuracy)"}, _CALLS[0])  # scaffolding
