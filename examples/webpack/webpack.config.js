// Plain webpack 5: it bundles Tessera's worker and copies its WebAssembly files by itself.
import HtmlWebpackPlugin from 'html-webpack-plugin';

export default {
  plugins: [new HtmlWebpackPlugin({ template: 'index.html' })],
};
