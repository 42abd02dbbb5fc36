import numpy as np


def batches(size):
    data = np.ones((10, 2))
    for start in range(0, len(data) - size + 1, size):
        yield data[start:start + size]
