def exclaim(value, times):
    return value + "!" * times
