# source: https://github.com/AndAmir/GAN-with-JAX/blob/a4c51cb826c327a51981ed1098f194d813552e3c/CycleGans_with_JAX.ipynb
# expect: trace-time-error at line 112
# runtime: ERROR TypeError
# why: the commit 'jax in data loading' puts @jit on the torch Dataset's __getitem__(self, index), so the first item fetched by the DataLoader passes the dataset object self as a traced argument and jit raises TypeError (not a valid JAX type).
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
import sys  # scaffolding
import tempfile  # scaffolding
import types  # scaffolding

# scaffolding: albumentations and PIL are not installed; minimal stand-ins for what cells 3-4 name
_A = types.ModuleType("albumentations")  # scaffolding
_A.Compose = lambda ts, additional_targets=None: (lambda **kw: kw)  # scaffolding
_A.Resize = lambda width, height: None  # scaffolding
_A.HorizontalFlip = lambda p: None  # scaffolding
_A.Normalize = lambda mean, std, max_pixel_value: None  # scaffolding
_A_pt = types.ModuleType("albumentations.pytorch")  # scaffolding
_A_pt.ToTensorV2 = lambda: None  # scaffolding
_A.pytorch = _A_pt  # scaffolding
sys.modules["albumentations"] = _A  # scaffolding
sys.modules["albumentations.pytorch"] = _A_pt  # scaffolding
_PIL = types.ModuleType("PIL")  # scaffolding
_PIL.Image = types.SimpleNamespace(open=lambda p: None)  # scaffolding
sys.modules["PIL"] = _PIL  # scaffolding

# scaffolding: the Kaggle monet/photo folders, 3 and 5 empty image files
_root = tempfile.mkdtemp()  # scaffolding
for _sub, _n in (("monet", 3), ("photo", 5)):  # scaffolding
    os.makedirs(os.path.join(_root, "dataset", _sub))  # scaffolding
    for _i in range(_n):  # scaffolding
        open(os.path.join(_root, "dataset", _sub, f"{_i}.jpg"), "w").close()  # scaffolding

# cell 1
#from google.colab import drive
#drive.mount('/content/drive')
# TODO: this might be wrong
#dir = '/content/drive/MyDrive/Datasets/' #dir on colab 
dir = _root + '/'  # scaffolding: './' in the notebook
# cell 2
# !pip install albumentations==0.4.6  # scaffolding: shell lines dropped
# !conda install -c conda-forge jax -y  # scaffolding
# cell 3
import torch
import albumentations as A
from albumentations.pytorch import ToTensorV2

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
TRAIN_DIR = f'{dir}dataset'
VAL_DIR = "data/val"
BATCH_SIZE = 1
LEARNING_RATE = 1e-5
# Hyperperamiters for generator loss
LAMBDA_IDENTITY = 0.0
LAMBDA_CYCLE = 10
# Hyperperamiters for epoch
NUM_WORKERS = 4
NUM_EPOCHS = 10

# Trasform to make data more useable 
# We belive this would fall into the Data loader classifcation
transforms = A.Compose(
    [
        A.Resize(width=256, height=256),
        A.HorizontalFlip(p=0.5),
        A.Normalize(mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5], max_pixel_value=255),
        ToTensorV2(),
     ],
    additional_targets={"image0": "image"},
)
# cell 4
from PIL import Image
import os
from torch.utils.data import Dataset
import jax.numpy as jnp
from jax import jit

class PhotoMonetDataset(Dataset):
    def __init__(self, root_monet, root_photo, transform=None):
        self.root_monet = root_monet
        self.root_photo = root_photo
        self.transform = transform

        self.monet_images = os.listdir(root_monet)
        self.photo_images = os.listdir(root_photo)
        self.length_dataset = max(len(self.monet_images), len(self.photo_images)) # 1000, 1500
        self.monet_len = len(self.monet_images)
        self.photo_len = len(self.photo_images)

    def __len__(self):
        return self.length_dataset
    @jit
    def __getitem__(self, index):
        monet_img = self.monet_images[index % self.monet_len]
        photo_img = self.photo_images[index % self.photo_len]

        monet_path = os.path.join(self.root_monet, monet_img)
        photo_path = os.path.join(self.root_photo, photo_img)

        monet_img = jnp.array(Image.open(monet_path).convert("RGB"))
        photo_img = jnp.array(Image.open(photo_path).convert("RGB"))

        if self.transform:
            augmentations = self.transform(image=monet_img, image0=photo_img)
            monet_img = augmentations["image"]
            photo_img = augmentations["image0"]

        return monet_img, photo_img
# cells 5-13 (torch/haiku generator and discriminator, train_fn, main) cut; main() builds the
# dataset and loader as below and iterates it in train_fn  # scaffolding
from torch.utils.data import DataLoader  # scaffolding: cell 13's import
dataset = PhotoMonetDataset(  # scaffolding: as in main()
    root_photo=TRAIN_DIR+"/monet", root_monet=TRAIN_DIR+"/photo", transform=transforms  # scaffolding
)  # scaffolding
loader = DataLoader(dataset, batch_size=BATCH_SIZE, shuffle=True, num_workers=0)  # scaffolding: num_workers=NUM_WORKERS, pin_memory=True in main()
try:  # scaffolding
    monet, photo = next(iter(loader))  # scaffolding: train_fn's `for idx, (monet, photo) in enumerate(loop)`
    _report({"jit(__getitem__)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
