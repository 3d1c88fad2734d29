# from: https://github.com/offish/twitchtube/issues/30 (a configuration module's constant)
import os

ROOT_PROFILE_PATH = "C:\Users\me\AppData\Roaming\Mozilla\Firefox\Profiles\5q8sjx41.Selenium2"
CLIPS_FOLDER = os.path.join(os.getcwd(), "clips")
