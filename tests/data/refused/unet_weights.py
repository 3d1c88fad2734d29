# from: a training script's checkpoint path ("truncated \uXXXX escape": a folder named unet)
from tensorflow import keras

model = keras.models.load_model("D:\projects\unet\weights\best.h5")
