# kube-scheduler-ts: build the TypeScript, then run it on a slim Node 20 image as a non-root user.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY scenarios ./scenarios
USER 65532:65532
EXPOSE 10259
ENTRYPOINT ["node", "dist/cli/bin.js"]
CMD ["run"]
