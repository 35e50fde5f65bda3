import { StatusBar } from 'expo-status-bar';
import { Text, View } from 'react-native';

export default function App() {
  return (
    <View>
      <Text>Harbor</Text>
      <StatusBar style="auto" />
    </View>
  );
}
