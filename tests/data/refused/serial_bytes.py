# from: a serial protocol's frame written with one-digit hex escapes (bytes: "invalid \x escape")
import serial

port = serial.Serial('COM3', 9600)
port.write(b'\x2\x30\x31\x3')
