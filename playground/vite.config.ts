import { defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * `npm run playground:build`: one self-contained `playground/dist/index.html` (script and style
 * inline), so it opens from the file system too, and works offline once loaded.
 */
function inlineAssets(): Plugin {
  return {
    name: 'inline-assets',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find((file) => file.type === 'asset' && file.fileName === 'index.html');
      if (html === undefined || html.type !== 'asset') return;
      let text = String(html.source);
      for (const [name, file] of Object.entries(bundle)) {
        if (file.type === 'chunk') {
          // A function replacement: the code may hold `$&` and the like.
          text = text.replace(new RegExp(`<script type="module" crossorigin src="[^"]*${file.fileName}"></script>`), () => `<script type="module">${file.code.replace(/<\/script/gi, '<\\/script')}</script>`);
          delete bundle[name];
        } else if (file.fileName.endsWith('.css')) {
          text = text.replace(new RegExp(`<link rel="stylesheet" crossorigin href="[^"]*${file.fileName}">`), () => `<style>${String(file.source)}</style>`);
          delete bundle[name];
        }
      }
      html.source = text;
    },
  };
}

const config: UserConfig = defineConfig({
  root: import.meta.dirname,
  base: './',
  logLevel: 'warn',
  plugins: [inlineAssets()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: false,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    rolldownOptions: { output: { codeSplitting: false } },
  },
  preview: { host: '127.0.0.1', port: 4179, strictPort: false, open: false },
});

export default config;
